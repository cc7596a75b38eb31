"""``gamehost health``: one grpc.health.v1 check, as a container health
check or a script runs it."""

from __future__ import annotations

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamehost.cli.channels import open_channel


def check(args) -> int:
    with open_channel(args) as channel:
        try:
            response = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout)
        except grpc.RpcError as error:
            print(f"{args.host}: {error.code().name}: {error.details()}")
            return 1
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    print(f"{args.host} {args.service or '(overall)'}: {status}")
    return 0 if response.status == health_pb2.HealthCheckResponse.SERVING else 1
