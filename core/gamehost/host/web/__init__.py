"""Browser access: Connect and gRPC-Web in front of the host's own gRPC
server, plus the static web client, on one HTTP port (see app.py)."""
