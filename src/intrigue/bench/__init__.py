"""Benchmarks: ``intrigue bench engine`` (headless random play) and ``intrigue bench server``."""
