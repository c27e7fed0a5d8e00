"""Static files of the browser client (a package so that its files ship as package data)."""
