"""proto/ is the full set an integrator needs: gamehost.proto and the
google.rpc protos of the host's errors (proto/google/rpc, written for
gamehost). They compile together with grpcio-tools' protoc, declare the same
wire format as googleapis-common-protos' (the module the host imports), and
decode a real host error's details field for field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.json_format import MessageToDict
from google.rpc import code_pb2, error_details_pb2, status_pb2

from gamehost.v1 import gamehost_pb2 as pb

PROTO = Path(__file__).resolve().parent.parent / "proto"
RPC_PROTOS = ["google/rpc/status.proto", "google/rpc/error_details.proto", "google/rpc/code.proto"]


@pytest.fixture(scope="module")
def proto_files(tmp_path_factory) -> descriptor_pb2.FileDescriptorSet:
    out = tmp_path_factory.mktemp("descriptors") / "all.pb"
    done = subprocess.run([sys.executable, "-m", "grpc_tools.protoc", "-I", str(PROTO), "--include_imports",
                           f"--descriptor_set_out={out}", "gamehost/v1/gamehost.proto", *RPC_PROTOS],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no warnings (unused imports and the like)
    return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())


@pytest.fixture(scope="module")
def our_pool(proto_files) -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()
    for file in proto_files.file:
        pool.Add(file)
    return pool


def messages(file: descriptor_pb2.FileDescriptorProto):
    def walk(prefix, types):
        for message in types:
            yield f"{prefix}.{message.name}", message
            yield from walk(f"{prefix}.{message.name}", message.nested_type)
    yield from walk(file.package, file.message_type)


def as_proto(module) -> descriptor_pb2.FileDescriptorProto:
    file = descriptor_pb2.FileDescriptorProto()
    module.DESCRIPTOR.CopyToProto(file)
    return file


@pytest.mark.parametrize("path, module", [("google/rpc/status.proto", status_pb2),
                                          ("google/rpc/error_details.proto", error_details_pb2)])
def test_every_google_rpc_field_has_googleapis_number_type_and_label(proto_files, path, module):
    [ours] = [file for file in proto_files.file if file.name == path]
    theirs = dict(messages(as_proto(module)))
    for name, message in messages(ours):
        assert name in theirs, name
        their_fields = {field.name: field for field in theirs[name].field}
        for field in message.field:
            their = their_fields[field.name]
            assert (field.number, field.type, field.label, field.type_name) == \
                   (their.number, their.type, their.label, their.type_name), f"{name}.{field.name}"


def test_error_details_declares_every_detail_the_host_packs(proto_files):
    [ours] = [file for file in proto_files.file if file.name == "google/rpc/error_details.proto"]
    # core/gamehost/host/rpc/status.py's details.
    assert {"google.rpc.ErrorInfo", "google.rpc.BadRequest", "google.rpc.PreconditionFailure",
            "google.rpc.ResourceInfo", "google.rpc.QuotaFailure", "google.rpc.RetryInfo"} <= dict(messages(ours)).keys()


def test_google_rpc_code_has_googleapis_numbers(proto_files):
    [ours] = [file for file in proto_files.file if file.name == "google/rpc/code.proto"]
    [code] = ours.enum_type
    assert {value.name: value.number for value in code.value} == dict(code_pb2.Code.items())


def host_errors(client) -> list[grpc.RpcError]:
    """Real errors of the host: an unknown game, a move that is not legal, a
    move out of turn."""
    errors = []

    def failing(call):
        with pytest.raises(grpc.RpcError) as caught:
            call()
        errors.append(caught.value)

    failing(lambda: client.stub.CreateMatch(pb.CreateMatchRequest(game="games/no-such-game"), timeout=30))
    match = client.create_match("tictactoe")
    x = client.join(match.name, player_name="ann")
    o = client.join(match.name, player_name="bob")
    failing(lambda: client.stub.SubmitMove(pb.SubmitMoveRequest(
        name=match.name, player_token=x.player_token, move_id="z9"), timeout=30))
    failing(lambda: client.stub.SubmitMove(pb.SubmitMoveRequest(
        name=match.name, player_token=o.player_token, move_id="b2"), timeout=30))
    return errors


def test_a_host_error_decodes_with_stubs_from_proto_as_with_googleapis(client, our_pool):
    our_status = message_factory.GetMessageClass(our_pool.FindMessageTypeByName("google.rpc.Status"))
    decoded_types = set()
    for error in host_errors(client):
        [details] = [value for key, value in error.trailing_metadata() if key == "grpc-status-details-bin"]
        theirs, ours = status_pb2.Status.FromString(details), our_status.FromString(details)
        assert (ours.code, ours.message) == (theirs.code, theirs.message) == (error.code().value[0], error.details())
        assert len(ours.details) == len(theirs.details) > 0
        for our_any, their_any in zip(ours.details, theirs.details):
            type_name = our_any.type_url.split("/")[-1]
            our_class = message_factory.GetMessageClass(our_pool.FindMessageTypeByName(type_name))
            their_class = getattr(error_details_pb2, type_name.split(".")[-1])
            our_detail, their_detail = our_class.FromString(our_any.value), their_class.FromString(their_any.value)
            # Every byte understood: no field the googleapis decoder knows is unknown to ours.
            assert our_detail.SerializeToString(deterministic=True) == their_detail.SerializeToString(deterministic=True)
            assert MessageToDict(our_detail) == MessageToDict(their_detail)
            decoded_types.add(type_name)
    assert {"google.rpc.ErrorInfo", "google.rpc.ResourceInfo"} <= decoded_types
