"""imprint_client's retries (docs/python.md, "Retries") against the real `imprint serve`,
reached through a loopback proxy of this test's own that injects the faults a client meets
on the way: an answer lost after the server made the create (the connection closes before
it arrives), and a 503 with Retry-After. A create whose answer was lost is sent again with
the same Idempotency-Key, one of the client's own, and made once; a 503 is asked again;
with retries=0, and for a request that is not safe to repeat, the first failure is raised."""

import http.client
import json
import os
import socket
import socketserver
import sys
import threading
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from imprint_client import Client, ImprintError  # noqa: E402
from world import PASSWORD, World  # noqa: E402

TEMPLATE = {
    "width": 40,
    "height": 20,
    "rendererType": "takumi",
    "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
                                                "backgroundColor": "#336699"}}},
}


class _ProxyHandler(socketserver.StreamRequestHandler):
    """One request a connection (urllib sends `Connection: close`): read it, apply the
    proxy's next fault, forward it to the server and copy the answer back."""

    def handle(self):
        proxy = self.server.proxy
        line = self.rfile.readline().decode("latin-1")
        if not line:
            return
        method, target, _ = line.split(" ", 2)
        headers = []
        while True:
            header = self.rfile.readline().decode("latin-1")
            if header in ("\r\n", "\n", ""):
                break
            name, value = header.split(":", 1)
            headers.append((name.strip(), value.strip()))
        length = int(next((v for k, v in headers if k.lower() == "content-length"), "0"))
        body = self.rfile.read(length) if length else b""
        with proxy.lock:
            fault = proxy.faults.pop(0) if proxy.faults else None
            proxy.seen.append((method, target, next((v for k, v in headers if k.lower() == "idempotency-key"), None)))
        if fault == "503":
            problem = json.dumps({"code": "database_unavailable", "status": 503, "title": "Service Unavailable",
                                  "detail": "injected by the test's proxy"}).encode()
            self.wfile.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\n"
                             b"Retry-After: 0\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(problem)
                             + problem)
            return
        upstream = http.client.HTTPConnection("127.0.0.1", proxy.upstream_port, timeout=30)
        forwarded = {k: v for k, v in headers if k.lower() not in ("connection", "host", "content-length")}
        upstream.request(method, target, body=body if length else None, headers=forwarded)
        answer = upstream.getresponse()
        data = answer.read()
        upstream.close()
        if fault == "lose":
            # The server has answered (and committed); the client never hears it.
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        head = f"HTTP/1.1 {answer.status} {answer.reason}\r\n"
        for name, value in answer.getheaders():
            if name.lower() not in ("connection", "content-length", "transfer-encoding"):
                head += f"{name}: {value}\r\n"
        head += f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
        self.wfile.write(head.encode("latin-1") + data)


class FaultProxy:
    """A loopback proxy to the server at `upstream_port`; `url` is its own. `faults` are
    applied to the next requests in order ("lose": forward, then close without the answer;
    "503": answer 503 problem+json, Retry-After: 0, without forwarding); `seen` lists
    (method, target, Idempotency-Key or None) of every request that reached it."""

    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.faults = []
        self.seen = []
        self.lock = threading.Lock()
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _ProxyHandler)
        self.server.daemon_threads = True
        self.server.proxy = self
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def attempts(self, method, path):
        return [key for m, target, key in self.seen if m == method and target.split("?", 1)[0] == path]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class RetryTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.world = World()
        cls.owner = Client(cls.world.url)
        cls.owner.login("o@a.test", PASSWORD)
        cls.proxy = FaultProxy(int(cls.world.url.rsplit(":", 1)[1]))

    @classmethod
    def tearDownClass(cls):
        cls.proxy.stop()
        cls.world.stop()

    def setUp(self):
        self.proxy.faults.clear()
        self.proxy.seen.clear()

    def templates_named(self, name):
        return sum(t["name"] == name for t in self.owner.list_templates())

    def test_a_create_whose_answer_was_lost_is_made_once(self):
        client = Client(self.proxy.url, session=self.owner.session)
        self.proxy.faults[:] = ["lose"]
        made = client.create_template(dict(TEMPLATE, name="Lost answer"))
        self.assertTrue(made["id"].startswith("tpl_"))
        keys = self.proxy.attempts("POST", "/api/v1/templates")
        self.assertEqual(len(keys), 2)
        self.assertIsNotNone(keys[0])  # a key of the client's own: none was passed
        self.assertEqual(keys[0], keys[1])
        self.assertEqual(self.templates_named("Lost answer"), 1)
        # The same with the caller's key, on a publish.
        page = self.owner.create_page(made["id"], name="Lost publish")
        self.proxy.faults[:] = ["lose"]
        client.publish_page(page["id"], idempotency_key="publish-once")
        self.assertEqual(self.proxy.attempts("POST", f"/api/v1/pages/{page['id']}/publish"),
                         ["publish-once", "publish-once"])
        self.assertIsNotNone(self.owner.get_page(page["id"]).get("publishedAt"))

    def test_a_503_is_asked_again_after_its_retry_after(self):
        key = self.owner.create_api_key("retries", scopes=["render"])["token"]
        renders = Client(self.proxy.url, api_key=key)
        self.proxy.faults[:] = ["503"]
        png = renders.render_inline(TEMPLATE)
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual(len(self.proxy.attempts("POST", "/api/v1/render")), 2)
        self.proxy.faults[:] = ["503", "503"]
        self.assertEqual(len(Client(self.proxy.url, session=self.owner.session).list_templates()),
                         len(self.owner.list_templates()))
        self.assertEqual(len(self.proxy.attempts("GET", "/api/v1/templates")), 3)

    def test_without_retries_or_when_unsafe_the_first_failure_is_raised(self):
        client = Client(self.proxy.url, session=self.owner.session, retries=0)
        self.proxy.faults[:] = ["503"]
        with self.assertRaises(ImprintError) as refused:
            client.list_templates()
        self.assertEqual((refused.exception.status, refused.exception.code), (503, "database_unavailable"))
        self.proxy.faults[:] = ["lose"]
        with self.assertRaises((ConnectionError, http.client.HTTPException, OSError)):
            client.create_template(dict(TEMPLATE, name="Sent once"))
        self.assertEqual(len(self.proxy.attempts("POST", "/api/v1/templates")), 1)
        # A key's creation answers its secret once, so it takes no Idempotency-Key and is
        # never sent again, retries or not.
        self.proxy.faults[:] = ["503"]
        with self.assertRaises(ImprintError) as unsafe:
            Client(self.proxy.url, session=self.owner.session).create_api_key("once")
        self.assertEqual(unsafe.exception.status, 503)
        self.assertEqual(len(self.proxy.attempts("POST", "/api/v1/tokens/api-keys")), 1)


if __name__ == "__main__":
    unittest.main()
