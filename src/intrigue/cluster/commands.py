"""``intrigue cluster up | down | status``: a three-node cluster on this machine (``make cluster``)."""

from __future__ import annotations

from pathlib import Path

import typer

cluster = typer.Typer(help="A cluster on this machine: PostgreSQL, Redis, nodes and the front proxy.",
                      no_args_is_help=True)
STATE = "cluster.json"


@cluster.command("up")
def up(folder: Path = typer.Option(Path(".cluster"), "--dir", help="Where the services keep their data and logs."),
       nodes: int = typer.Option(3, "--nodes", min=1, max=9, help="How many nodes."),
       port: int = typer.Option(8080, help="The proxy's port: the one address to open."),
       lease: float = typer.Option(1.5, help="Seconds a node's lease lives without renewal."),
       install: bool = typer.Option(True, help="Install PostgreSQL, Redis and HAProxy from Debian's packages "
                                               "if they are missing.")) -> None:
    """Start PostgreSQL, Redis, NODES nodes and HAProxy on 127.0.0.1 and print the address to open."""
    from . import services  # noqa: PLC0415
    from .local import LocalCluster  # noqa: PLC0415

    folder.mkdir(parents=True, exist_ok=True)
    state = folder / STATE
    if state.exists():
        typer.echo(f"error: a cluster is already up in {folder} ({state} exists): run "
                   "'intrigue cluster down' (make cluster-stop) first", err=True)
        raise typer.Exit(1)
    try:
        if install:
            for package in services.install(quiet=False):
                typer.echo(f"installed {package}", err=True)
        home, note = services.reachable_folder(folder)
        if note:
            typer.echo(f"note: {note}", err=True)
        postgres = services.Postgres(home).start()
        redis = services.Redis(home).start()
        running = LocalCluster(home / "nodes", postgres.url, redis.url, lease)
        try:
            for index in range(nodes):
                node = running.start_node(chr(ord("a") + index))
                typer.echo(f"node {node.name} on {node.url} (log {node.log})", err=True)
            running.start_proxy(port=port)
        except services.ServiceError:
            running.stop()
            redis.stop()
            postgres.stop()
            raise
    except services.ServiceError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    running.save(state, postgres={"folder": str(home), "port": postgres.port},
                 redis_service={"folder": str(home), "port": redis.port})
    assert running.proxy is not None
    typer.echo(f"PostgreSQL {postgres.url}, Redis {redis.url}, data in {home}", err=True)
    typer.echo(f"Intrigue cluster of {nodes} nodes: open {running.proxy.url}/")


@cluster.command("down")
def down(folder: Path = typer.Option(Path(".cluster"), "--dir")) -> None:
    """Stop what 'intrigue cluster up' started in --dir (the data stays for the next 'up')."""
    from . import services  # noqa: PLC0415
    from .local import LocalCluster  # noqa: PLC0415

    state = folder / STATE
    if not state.exists():
        typer.echo(f"no cluster is up in {folder}")
        return
    running, saved = LocalCluster.load(state)
    running.stop()
    services.Redis(Path(saved["redis_service"]["folder"]), saved["redis_service"]["port"]).stop()
    services.Postgres(Path(saved["postgres"]["folder"]), saved["postgres"]["port"]).stop()
    state.unlink()
    typer.echo(f"stopped the cluster in {folder}")


@cluster.command("status")
def status(folder: Path = typer.Option(Path(".cluster"), "--dir")) -> None:
    """Which nodes answer their health check, and the address to open."""
    from .local import LocalCluster, healthy  # noqa: PLC0415

    state = folder / STATE
    if not state.exists():
        typer.echo(f"no cluster is up in {folder}")
        raise typer.Exit(1)
    running, _ = LocalCluster.load(state)
    for node in running.nodes.values():
        typer.echo(f"node {node.name} {node.url}: {'up' if healthy(node.url) else 'DOWN'}")
    if running.proxy is not None:
        typer.echo(f"proxy {running.proxy.url}: {'up' if healthy(running.proxy.url) else 'DOWN'}")


def register(app: typer.Typer) -> None:
    app.add_typer(cluster, name="cluster")
