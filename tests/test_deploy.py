"""The files in deploy/: what can be checked without Docker or a cluster.

- the Kubernetes manifests decode strictly into the API types and refer to
  each other, to the image and to the host's settings consistently;
- docker-compose.yml and the Dockerfile agree with the host and nginx.conf;
- the Dockerfile's builder commands and the runtime's install run for real;
- nginx.conf passes `nginx -t`, and two real hosts behind it answer gRPC
  calls and health checks through it, each call balanced on its own.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import grpc
import pytest
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamehost.cli.main import build_parser
from gamehost.host.ops.config import HostConfig
from gamehost.host.ops.settings_sources import env_of, load_settings
from gamehost.host.store import describe_store
from gamehost.host.ops.server import SERVICE_NAME
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from hosts import HostProcess
from k8s_types import problems

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"


# ------------------------------------------------------------------ helpers

def manifests() -> dict[tuple[str, str], dict]:
    """Every Kubernetes object in deploy/k8s, by (kind, name)."""
    objects = {}
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for document in yaml.safe_load_all(path.read_text()):
            if document:
                objects[(document["kind"], document["metadata"]["name"])] = document | {"_file": path.name}
    return objects


def dockerfile_stages() -> dict[str, list[tuple[str, str]]]:
    """The Dockerfile's instructions by stage name: (INSTRUCTION, arguments)."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    stages: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        instruction, _, arguments = line.partition(" ")
        instruction, arguments = instruction.upper(), arguments.strip()
        if instruction == "FROM":
            image, _, name = arguments.partition(" AS ")
            current = name.strip() or image
            stages[current] = [("FROM", image.strip())]
        else:
            stages[current].append((instruction, arguments))
    return stages


def instructions(stage: list[tuple[str, str]], name: str) -> list[str]:
    return [arguments for instruction, arguments in stage if instruction == name]


def stage_env(stage: list[tuple[str, str]]) -> dict[str, str]:
    env = {}
    for arguments in instructions(stage, "ENV"):
        for pair in shlex.split(arguments):
            key, _, value = pair.partition("=")
            env[key] = value
    return env


def exec_form(arguments: str) -> list[str]:
    return yaml.safe_load(arguments)  # a JSON array


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def deployment_container() -> dict:
    return manifests()[("Deployment", "gamehost")]["spec"]["template"]["spec"]["containers"][0]


# ------------------------------------------------------------------ Kubernetes

def test_manifests_decode_strictly_into_the_kubernetes_api_types():
    objects = manifests()
    assert {kind for kind, _ in objects} == {"ConfigMap", "Secret", "Deployment", "Service",
                                             "HorizontalPodAutoscaler", "PodDisruptionBudget"}
    for (kind, name), document in objects.items():
        document = {key: value for key, value in document.items() if key != "_file"}
        assert problems(document) == [], f"{kind}/{name}"
    # The check itself catches a misspelt field and a wrong type.
    broken = yaml.safe_load((K8S / "deployment.yaml").read_text())
    broken["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["grpc"]["servce"] = "x"
    broken["spec"]["replicas"] = "2"
    assert len(problems(broken)) == 2


def test_kustomization_lists_every_manifest():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert kustomization["kind"] == "Kustomization"
    assert sorted(kustomization["resources"]) == sorted(p.name for p in K8S.glob("*.yaml")
                                                        if p.name != "kustomization.yaml")
    image = deployment_container()["image"].split(":")[0]
    assert [entry["name"] for entry in kustomization["images"]] == [image]


def test_manifests_agree_with_each_other_with_the_image_and_with_the_host(monkeypatch):
    objects = manifests()
    deployment = objects[("Deployment", "gamehost")]
    pod = deployment["spec"]["template"]
    labels = pod["metadata"]["labels"]
    container = pod["spec"]["containers"][0]
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}

    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    for (kind, name), document in objects.items():
        if kind == "Service":
            assert document["spec"]["selector"].items() <= labels.items(), name
            for port in document["spec"]["ports"]:
                assert port["targetPort"] in ports, f"{name}: no container port {port['targetPort']!r}"
            assert any(port["name"] == "grpc" and port["appProtocol"] == "grpc" for port in document["spec"]["ports"])
    assert objects[("Service", "gamehost-headless")]["spec"]["clusterIP"] == "None"
    assert objects[("PodDisruptionBudget", "gamehost")]["spec"]["selector"]["matchLabels"].items() <= labels.items()
    target = objects[("HorizontalPodAutoscaler", "gamehost")]["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == ("apps/v1", "Deployment", "gamehost")

    # Probes: liveness asks the overall status, readiness the GameHost service.
    assert container["livenessProbe"]["grpc"] == {"port": ports["grpc"]}
    assert container["startupProbe"]["grpc"] == {"port": ports["grpc"]}
    assert container["readinessProbe"]["grpc"] == {"port": ports["grpc"], "service": SERVICE_NAME}

    # Environment: the ConfigMap and Secret hold the keys the pod asks for,
    # and the host reads them as the ports the pod declares.
    config_map = objects[("ConfigMap", container["envFrom"][0]["configMapRef"]["name"])]
    environment = dict(config_map["data"])
    for variable in container["env"]:
        reference = variable["valueFrom"]["secretKeyRef"]
        secret = objects[("Secret", reference["name"])]
        assert reference["key"] in secret["stringData"]
        environment[variable["name"]] = secret["stringData"][reference["key"]]
    read_by_host = {env_of(HostConfig, name) for name in HostConfig.model_fields}
    assert set(environment) <= read_by_host
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    config = load_settings(HostConfig)
    assert int(config.address.rsplit(":", 1)[1]) == ports["grpc"]
    assert config.metrics_port == ports["metrics"] == int(pod["metadata"]["annotations"]["prometheus.io/port"])
    assert config.log_format == "json"
    assert config.store.startswith("postgresql://")
    pause = int(container["lifecycle"]["preStop"]["exec"]["command"][1])
    assert pod["spec"]["terminationGracePeriodSeconds"] > pause + config.shutdown_grace

    # Non-root, as the image's user.
    runtime = dockerfile_stages()["runtime"]
    uid, gid = instructions(runtime, "USER")[-1].split(":")
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    assert (pod["spec"]["securityContext"]["runAsUser"], pod["spec"]["securityContext"]["runAsGroup"]) == (
        int(uid), int(gid))
    assert container["securityContext"]["allowPrivilegeEscalation"] is False


def test_the_database_password_from_the_secret_is_not_logged():
    secret = manifests()[("Secret", "gamehost-database")]["stringData"]["GAMEHOST_STORE"]
    assert "CHANGE-ME" in secret
    assert describe_store(secret) == "postgresql://gamehost:***@postgres:5432/gamehost"
    assert describe_store("postgresql://app:p%40ss@db.internal/games?sslmode=require") == (
        "postgresql://app:***@db.internal/games?sslmode=require")
    assert describe_store("sqlite:///var/lib/gamehost/gamehost.db") == "sqlite:///var/lib/gamehost/gamehost.db"
    assert describe_store("memory") == "memory"


# ------------------------------------------------------------------ image and compose

def test_dockerfile_runtime_matches_the_host_and_its_cli():
    stages = dockerfile_stages()
    assert list(stages) == ["web", "builder", "runtime"]
    runtime = stages["runtime"]
    assert runtime[0] == ("FROM", "python:3.11-slim")
    env = stage_env(runtime)
    assert env["GAMEHOST_LOG_FORMAT"] == "json"
    exposed = {int(port) for line in instructions(runtime, "EXPOSE") for port in line.split()}
    assert exposed == {int(env["GAMEHOST_ADDRESS"].rsplit(":", 1)[1]), int(env["GAMEHOST_WEB_PORT"]),
                       int(env["GAMEHOST_METRICS_PORT"])}
    assert instructions(runtime, "USER")[-1].split(":")[0] != "0"

    parser = build_parser()
    entrypoint = exec_form(instructions(runtime, "ENTRYPOINT")[-1])
    assert entrypoint == ["gamehost"]
    assert parser.parse_args(exec_form(instructions(runtime, "CMD")[-1])).command == "serve"
    healthcheck = instructions(runtime, "HEALTHCHECK")[-1]
    check = exec_form(healthcheck.split(" CMD ", 1)[1])
    assert check[0] == "gamehost"
    arguments = parser.parse_args(check[1:])
    assert arguments.command == "health" and arguments.service == SERVICE_NAME
    assert arguments.host.rsplit(":", 1)[1] == env["GAMEHOST_ADDRESS"].rsplit(":", 1)[1]

    # The runtime installs from the builder's wheel directory.
    mount = re.search(r"--mount=type=bind,from=builder,source=(\S+),target=(\S+)",
                      " ".join(instructions(runtime, "RUN")))
    assert mount and mount.groups() == (stage_env(stages["builder"])["WHEELS"], env["WHEELS"])

    # What the builder copies exists, and the context leaves out what it must not send.
    for source in (part for line in instructions(stages["builder"], "COPY") for part in line.split()[:-1]):
        assert (ROOT / source).exists(), source
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", "**/.venv", "**/node_modules", "**/*.egg-info"} <= set(ignored)


def test_compose_runs_two_replicas_on_postgres_behind_the_grpc_balancer():
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    services = compose["services"]
    replicas = sorted(name for name, service in services.items() if service.get("build"))
    assert replicas == ["gamehost-1", "gamehost-2"]
    runtime_env = stage_env(dockerfile_stages()["runtime"])
    grpc_port = runtime_env["GAMEHOST_ADDRESS"].rsplit(":", 1)[1]
    web_port = runtime_env["GAMEHOST_WEB_PORT"]
    postgres = services["postgres"]
    assert postgres["image"] == "postgres:15"
    for name in replicas:
        service = services[name]
        assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).resolve() == (
            DEPLOY / "Dockerfile")
        store = service["environment"]["GAMEHOST_STORE"]
        user, database = postgres["environment"]["POSTGRES_USER"], postgres["environment"]["POSTGRES_DB"]
        assert re.fullmatch(rf"postgresql://{user}:[^@]+@postgres:5432/{database}", store), store
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert {grpc_port, web_port, runtime_env["GAMEHOST_METRICS_PORT"]} <= set(service["expose"])
        assert float(service["environment"]["GAMEHOST_SHUTDOWN_GRACE"]) < float(
            service["stop_grace_period"].removesuffix("s"))

    balancer = services["lb"]
    mount = balancer["volumes"][0].split(":")
    assert (DEPLOY / mount[0]).resolve() == DEPLOY / "nginx.conf" and mount[1] == "/etc/nginx/nginx.conf"
    assert sorted(balancer["depends_on"]) == replicas
    upstreams = re.findall(r"^\s*server\s+([\w.-]+):(\d+)", (DEPLOY / "nginx.conf").read_text(), re.M)
    assert sorted(upstreams) == sorted((name, port) for name in replicas for port in (grpc_port, web_port))
    assert balancer["ports"] == [f"{grpc_port}:{grpc_port}", f"{web_port}:{web_port}"]


@pytest.mark.long_running  # every package built and installed in a fresh venv: some 40 s idle
def test_dockerfile_builder_and_install_commands_run(tmp_path):
    """The builder stage's COPY and RUN lines, then the runtime's install, for
    real: paths in ENV point into tmp_path, `pip` is a scratch venv's."""
    stages = dockerfile_stages()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    wheels = tmp_path / "wheels"

    def run_stage(stage: list[tuple[str, str]], workdir: Path) -> None:
        env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
               **stage_env(stage), "WHEELS": str(wheels), "PIP_QUIET": "1"}
        env.pop("PYTHONPATH", None)
        for instruction, arguments in stage:
            if instruction == "COPY" and not arguments.startswith("--from"):
                *sources, target = arguments.split()
                for source in sources:  # as Docker does: a directory's contents, a file into the target
                    if (ROOT / source).is_dir():
                        shutil.copytree(ROOT / source, workdir / target, dirs_exist_ok=True,
                                        ignore=shutil.ignore_patterns("*.egg-info", "__pycache__", "build"))
                    else:
                        (workdir / target).mkdir(parents=True, exist_ok=True)
                        shutil.copy(ROOT / source, workdir / target)
            elif instruction == "RUN":
                command = re.sub(r"^(--mount=\S+\s+)+", "", arguments)
                if not command.startswith("pip "):
                    continue  # system set-up (the user account): not run here
                subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=workdir, env=env, check=True)

    source = tmp_path / "src"
    source.mkdir()
    run_stage(stages["builder"], source)
    built = {wheel.name.split("-")[0] for wheel in wheels.glob("*.whl")}
    plugins = {f"gamehost_{p.name}" for p in (ROOT / "plugins").iterdir() if (p / "pyproject.toml").exists()}
    assert {"gamehost", "gamehost_client", "grpcio", "prometheus_client"} | plugins <= built

    run_stage(stages["runtime"], tmp_path)
    listing = subprocess.run([str(venv / "bin" / "gamehost"), "plugins"], capture_output=True, text=True,
                             check=True, cwd=tmp_path, env={"PATH": os.environ["PATH"]}).stdout
    for game in ("tictactoe", "campanile", "burgbaumeister", "scalino", "kensington", "callisto"):
        assert game in listing


# ------------------------------------------------------------------ nginx

def local_nginx_conf(tmp_path: Path, upstreams: dict[str, int]) -> tuple[Path, dict[str, int]]:
    """deploy/nginx.conf with each replica's "name:port" replaced by the local
    port given for it, and its own listen ports (by the port they replace)
    and pid file."""
    text = (DEPLOY / "nginx.conf").read_text()
    names = re.findall(r"^\s*server\s+([\w.-]+:\d+)", text, re.M)
    assert sorted(names) == sorted(upstreams)
    for name, port in upstreams.items():
        text = text.replace(f" {name} ", f" 127.0.0.1:{port} ")
    listens = {}
    for listened in re.findall(r"listen (\d+)", text):
        listens[listened] = free_port()
        text = text.replace(f"listen {listened}", f"listen 127.0.0.1:{listens[listened]}")
    text = text.replace("pid /tmp/nginx.pid;", f"pid {tmp_path / 'nginx.pid'};")
    conf = tmp_path / "nginx.conf"
    conf.write_text(text)
    return conf, listens


def nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    assert found, "nginx is not installed: make test installs Debian's nginx-light"
    return found


def test_nginx_config_passes_nginx_t(tmp_path):
    conf, _ = local_nginx_conf(tmp_path, {f"gamehost-{i}:{port}": free_port()
                                          for i in (1, 2) for port in (50051, 8080)})
    checked = subprocess.run([nginx(), "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_grpc_calls_and_health_checks_go_through_nginx_to_both_replicas(tmp_path):
    replicas = [HostProcess("--metrics-port", "0", data_dir=tmp_path / f"replica{i}").start() for i in (1, 2)]
    balancer = None
    try:
        conf, listens = local_nginx_conf(tmp_path, {
            **{f"gamehost-{i}:50051": replica.port for i, replica in enumerate(replicas, 1)},
            **{f"gamehost-{i}:8080": replica.web_port for i, replica in enumerate(replicas, 1)}})
        port = listens["50051"]
        balancer = subprocess.Popen([nginx(), "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=10)
            health = health_pb2_grpc.HealthStub(channel)
            deadline = time.monotonic() + 10
            while True:  # nginx may still be starting its workers
                try:
                    answer = health.Check(health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=5)
                    break
                except grpc.RpcError:
                    assert time.monotonic() < deadline and balancer.poll() is None, balancer.stderr
                    time.sleep(0.1)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING
            stub = pb_grpc.GameHostStub(channel)
            for _ in range(10):
                games = stub.ListGames(pb.ListGamesRequest(), timeout=5)
                assert "games/tictactoe" in [game.name for game in games.games]
            with pytest.raises(grpc.RpcError) as refused:
                stub.GetMatch(pb.GetMatchRequest(name="matches/nosuchmatch"), timeout=5)
            assert refused.value.code() == grpc.StatusCode.NOT_FOUND, "statuses pass through unchanged"

        # Browsers: a Connect call through the web port's upstream.
        connect = urllib.request.Request(f"http://127.0.0.1:{listens['8080']}/gamehost.v1.GameHost/ListGames",
                                         data=b"{}", headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(connect, timeout=10) as response:
            assert "games/tictactoe" in [game["name"] for game in json.loads(response.read())["games"]]

        served = []
        for replica in replicas:
            with urllib.request.urlopen(f"http://127.0.0.1:{replica.metrics_port}/metrics", timeout=5) as response:
                text = response.read().decode()
            calls = re.search(r'gamehost_grpc_server_handled_total\{grpc_code="OK",grpc_method="ListGames"[^}]*\} '
                              r'([\d.]+)', text)
            served.append(float(calls.group(1)) if calls else 0.0)
        # Ten gRPC calls and the Connect one, which the web gateway hands to the host's own gRPC server.
        assert sum(served) == 11 and all(count >= 3 for count in served), f"calls per replica: {served}"
    finally:
        if balancer:
            balancer.terminate()
            balancer.wait(10)
        for replica in replicas:
            replica.stop()
