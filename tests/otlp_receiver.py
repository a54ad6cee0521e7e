"""A real OTLP trace receiver on loopback for tests and benchmarks.

It serves the OTLP ``TraceService/Export`` gRPC method (grpcio server, the official
``opentelemetry-proto`` service definition) and OTLP/HTTP ``POST /v1/traces`` (protobuf bodies,
stdlib HTTP server), and keeps every span it receives. Why not Arize Phoenix or the Collector:
see docs/opentelemetry.md ("How it is tested").
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.proto.common.v1.common_pb2 import AnyValue


def _value(v: AnyValue) -> Any:
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    return getattr(v, kind) if kind else None


class OtlpReceiver:
    """Start with ``OtlpReceiver()``; ``grpc_endpoint`` / ``http_endpoint`` are the URLs to export to."""

    def __init__(self) -> None:
        self.spans: list[dict[str, Any]] = []
        self.requests = 0
        self._lock = threading.Lock()
        self._grpc = grpc.server(ThreadPoolExecutor(max_workers=2))
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(_Servicer(self), self._grpc)
        port = self._grpc.add_insecure_port("127.0.0.1:0")
        self._grpc.start()
        self.grpc_endpoint = f"http://127.0.0.1:{port}"
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        threading.Thread(target=self._http.serve_forever, daemon=True).start()
        self.http_endpoint = f"http://127.0.0.1:{self._http.server_address[1]}"

    def take(self, request: trace_service_pb2.ExportTraceServiceRequest) -> None:
        found = []
        for rs in request.resource_spans:
            resource = {a.key: _value(a.value) for a in rs.resource.attributes}
            for ss in rs.scope_spans:
                for s in ss.spans:
                    found.append({
                        "name": s.name, "trace_id": s.trace_id.hex(), "span_id": s.span_id.hex(),
                        "parent": s.parent_span_id.hex() or None, "scope": ss.scope.name, "kind": s.kind,
                        "start": s.start_time_unix_nano, "end": s.end_time_unix_nano,
                        "attributes": {a.key: _value(a.value) for a in s.attributes},
                        "events": [{"name": e.name, "attributes": {a.key: _value(a.value) for a in e.attributes}}
                                   for e in s.events],
                        "status": s.status.code, "resource": resource})
        with self._lock:
            self.requests += 1
            self.spans.extend(found)

    def wait_for(self, ready: Callable[[list[dict[str, Any]]], bool], timeout: float = 10.0) -> list[dict[str, Any]]:
        """The spans once ``ready(spans)`` holds (or, after ``timeout`` seconds, whatever arrived)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                spans = list(self.spans)
            if ready(spans):
                return spans
            time.sleep(0.05)
        with self._lock:
            return list(self.spans)

    def stop(self) -> None:
        self._grpc.stop(grace=None)
        self._http.shutdown()
        self._http.server_close()


class _Servicer(trace_service_pb2_grpc.TraceServiceServicer):
    def __init__(self, receiver: OtlpReceiver) -> None:
        self.receiver = receiver

    def Export(self, request: Any, context: Any) -> Any:
        self.receiver.take(request)
        return trace_service_pb2.ExportTraceServiceResponse()


def _handler(receiver: OtlpReceiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path != "/v1/traces" or "protobuf" not in (self.headers.get("Content-Type") or ""):
                self.send_response(404)
                self.end_headers()
                return
            receiver.take(trace_service_pb2.ExportTraceServiceRequest.FromString(body))
            reply = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
