"""imprint_client's resource methods against the real `imprint serve`: assets, template
versions and rollback, a page's meta tags, signing keys listed and URLs signed by the
server, usage, webhooks (delivered to a receiver of this test's own on 127.0.0.1, which
the server's configuration allowlists), the session (me) and the pattern catalog."""

import base64
import datetime
import hashlib
import hmac
import http.server
import json
import os
import struct
import sys
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from imprint_client import Client, ImprintError, image_media_type  # noqa: E402
from world import CARD, PASSWORD, World  # noqa: E402


def png_bytes(width, height, rgb=(255, 0, 0)):
    """A truecolour PNG of one colour, made with zlib and struct."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def png_size(data):
    """(width, height) of PNG bytes, from the IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:16]
    return struct.unpack(">II", data[16:24])


def fetch(url):
    """GET `url` without credentials: (status, Content-Type, body)."""
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.headers["Content-Type"], answer.read()


def wait_for(what, probe, timeout=20.0):
    """probe() until it returns something true; AssertionError naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"no {what} after {timeout} s")
        time.sleep(0.1)


class _Receiver(http.server.ThreadingHTTPServer):
    """A webhook receiver on 127.0.0.1: records every POST (headers, body), answers 204."""

    def __init__(self):
        self.lock = threading.Lock()
        self.received = []
        super().__init__(("127.0.0.1", 0), _ReceiverHandler)
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def messages(self, webhook_id):
        with self.lock:
            return [m for m in self.received if m[0].get("webhook-id") == webhook_id]


class _ReceiverHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with self.server.lock:
            self.server.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


class ResourcesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.receiver = _Receiver()
        cls.world = World(config={"webhooks": {"hostAllowlist": ["127.0.0.1"], "pollMs": 100,
                                               "retrySeconds": [0.3], "timeoutMs": 3000}})
        cls.url = cls.world.url
        cls.owner = Client(cls.url)
        cls.owner.login("o@a.test", PASSWORD)
        cls.template = cls.owner.create_template(CARD)
        cls.page = cls.owner.create_page(cls.template["id"], name="Meta", publish=True)
        cls.renders = Client(cls.url, api_key=cls.owner.create_api_key("render")["token"])

    @classmethod
    def tearDownClass(cls):
        cls.world.stop()
        cls.receiver.shutdown()
        cls.receiver.server_close()

    def test_assets_upload_list_and_delete(self):
        data = png_bytes(3, 2)
        self.assertEqual(image_media_type(data), "image/png")
        asset = self.owner.upload_asset(data, idempotency_key="py-asset-1")
        self.assertTrue(asset["id"].startswith("ast_"), asset)
        self.assertEqual((asset["width"], asset["height"], asset["contentType"]), (3, 2, "image/png"))
        self.assertFalse(asset["deduplicated"])
        self.assertEqual(fetch(asset["url"])[2], data)  # its url serves the bytes
        # The same key again is the first answer; the same bytes under a new key are stored once.
        self.assertEqual(self.owner.upload_asset(data, idempotency_key="py-asset-1"), asset)
        again = self.owner.upload_asset(data)
        self.assertEqual((again["id"], again["deduplicated"]), (asset["id"], True))
        listed = {a["id"]: a for a in self.owner.list_assets(per_page=100)["list"]}
        self.assertEqual((listed[asset["id"]]["width"], listed[asset["id"]]["height"]), (3, 2))
        # A template draws it as asset:ID.
        card = {"width": 30, "height": 20, "root": {"type": "img", "props": {
            "src": f"asset:{asset['id']}", "style": {"width": 30, "height": 20}}}}
        drawn = self.renders.render_json(template=card, output="dataurl")
        self.assertEqual(drawn["warnings"], [])

        self.owner.delete_asset(asset["id"])
        # Then it is left out with a warning (at another width: the same request within 10 s
        # would be answered from the render memo, docs/api.md "Inline renders").
        after = self.renders.render_json(template=card, output="dataurl", width=31)
        self.assertEqual(after["warnings"], [f"root.props.src: this space has no asset {asset['id']}"])
        self.assertNotIn(asset["id"], [a["id"] for a in self.owner.list_assets(per_page=100)["list"]])
        with self.assertRaises(ImprintError) as gone:
            self.owner.delete_asset(asset["id"])
        self.assertEqual((gone.exception.status, gone.exception.code), (404, "asset_not_found"))
        with self.assertRaises(ImprintError) as bad:
            self.owner.upload_asset(b"\x89PNG\r\n\x1a\nnot really")
        self.assertEqual((bad.exception.status, bad.exception.code), (400, "invalid_image"))

    def test_image_media_type_sniffs_the_first_bytes(self):
        self.assertEqual(image_media_type(b"\xff\xd8\xff\xe0\x00\x10JFIF"), "image/jpeg")
        self.assertEqual(image_media_type(b"GIF89a\x01\x00"), "image/gif")
        self.assertEqual(image_media_type(b"RIFF\x24\x00\x00\x00WEBPVP8 "), "image/webp")
        self.assertEqual(image_media_type(b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
                         "image/svg+xml")
        self.assertEqual(image_media_type(b"\n<svg/>"), "image/svg+xml")
        self.assertEqual(image_media_type(b"PK\x03\x04"), "application/octet-stream")

    def test_template_versions_and_rollback(self):
        tpl = self.owner.create_template(dict(CARD, name="Versioned"))
        self.owner.update_template(tpl["id"], dict(CARD, name="Versioned", width=200))
        versions = self.owner.list_template_versions(tpl["id"])
        self.assertEqual([v["version"] for v in versions["list"]], [2, 1])  # newest first
        self.assertEqual(versions["count"], 2)
        self.assertEqual(self.owner.get_template_version(tpl["id"], 1)["document"]["width"], 160)
        self.assertEqual(self.owner.get_template_version(tpl["id"], 2)["document"]["width"], 200)

        rolled = self.owner.rollback_template(tpl["id"], 1, idempotency_key="py-rollback-1")
        self.assertEqual((rolled["version"], rolled["document"]["width"]), (3, 160))
        self.assertEqual(self.owner.get_template(tpl["id"])["document"]["width"], 160)
        # The same key again is the first answer, not a fourth version.
        self.assertEqual(self.owner.rollback_template(tpl["id"], 1, idempotency_key="py-rollback-1")["version"], 3)
        self.assertEqual([v["version"] for v in self.owner.list_template_versions(tpl["id"])["list"]], [3, 2, 1])
        self.assertEqual(self.owner.get_template_version(tpl["id"], 3)["document"]["width"], 160)
        self.assertEqual(len(self.owner.list_template_versions(tpl["id"], per_page=1)["list"]), 1)
        with self.assertRaises(ImprintError) as missing:
            self.owner.get_template_version(tpl["id"], 9)
        self.assertEqual((missing.exception.status, missing.exception.code), (404, "template_version_not_found"))
        with self.assertRaises(ImprintError) as missing:
            self.owner.rollback_template(tpl["id"], 9)
        self.assertEqual(missing.exception.code, "template_version_not_found")
        self.owner.delete_template(tpl["id"])

    def test_page_meta_gives_a_signed_og_image(self):
        signing = self.owner.create_signing_key("meta")
        meta = self.owner.page_meta(self.page["id"], signing_key=signing["id"])
        self.assertEqual(meta["pageId"], self.page["id"])
        image = meta["tags"]["og:image"]
        self.assertEqual(meta["imageUrl"], image)
        self.assertTrue(image.startswith(self.url + "/api/v1/render?"), image)
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(image).query))
        self.assertEqual((query["pageId"], query["kid"]), (self.page["id"], signing["id"]))
        self.assertNotIn("exp", query)
        self.assertEqual((meta["width"], meta["height"], meta["contentType"]), (160, 80, "image/png"))
        self.assertEqual(meta["tags"]["twitter:card"], "summary_large_image")
        status, media_type, body = fetch(image)  # a crawler needs no key
        self.assertEqual((status, media_type, png_size(body)), (200, "image/png", (160, 80)))

        expiring = self.renders.page_meta(self.page["id"], signing_key=signing["id"], expiresInSeconds=600)
        self.assertIn("exp", dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(expiring["imageUrl"]).query)))
        html = self.owner.page_meta(self.page["id"], signing_key=signing["id"], format="html")
        self.assertIn('<meta property="og:image" content="', html)
        with self.assertRaises(ImprintError) as unsigned:
            self.owner.page_meta(self.page["id"])
        self.assertEqual((unsigned.exception.status, unsigned.exception.code), (400, "missing_field"))
        self.owner.revoke_signing_key(signing["id"])
        with self.assertRaises(urllib.error.HTTPError) as revoked:
            fetch(image)
        revoked.exception.close()
        self.assertEqual(revoked.exception.code, 403)

    def test_signing_keys_listed_and_urls_signed_on_the_server(self):
        signing = self.owner.create_signing_key("server-side")
        listed = self.owner.list_signing_keys(per_page=100)["list"]
        self.assertIn(signing["id"], [k["id"] for k in listed])
        self.assertNotIn(signing["secret"], json.dumps(listed))
        url = self.owner.sign_url_on_server(
            signing["id"], f"{self.url}/api/v1/render?pageId={self.page['id']}&width=80", expires_in=600)
        self.assertIsInstance(url, str)
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
        self.assertEqual((query["kid"], query["width"]), (signing["id"], "80"))
        self.assertTrue(query["sig"] and query["exp"].isdigit(), query)
        status, media_type, body = fetch(url)
        self.assertEqual((status, media_type, png_size(body)), (200, "image/png", (80, 80)))  # the template's height
        with self.assertRaises(urllib.error.HTTPError) as tampered:
            fetch(url.replace("width=80", "width=81"))
        tampered.exception.close()
        self.assertEqual(tampered.exception.code, 403)
        with self.assertRaises(ImprintError) as bad:
            self.owner.sign_url_on_server(signing["id"], f"{self.url}/api/v1/pages")
        self.assertEqual((bad.exception.code, bad.exception.field), ("invalid_url", "url"))
        self.owner.revoke_signing_key(signing["id"])
        self.assertNotIn(signing["id"], [k["id"] for k in self.owner.list_signing_keys(per_page=100)["list"]])

    def test_usage_counts_renders(self):
        self.renders.render_page(self.page["id"], width=40, height=20)
        since = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)

        def counted():  # usage rows are written within a second of the answer
            usage = self.owner.usage(from_=since, granularity="hour", group="engine")
            return usage if usage["totals"]["renders"] >= 1 else None
        usage = wait_for("usage row", counted)
        self.assertEqual(usage["granularity"], "hour")
        self.assertGreater(usage["totals"]["bytes"], 0)
        self.assertIn("takumi", [g["group"] for g in usage["groups"]])
        self.assertEqual(sum(b["renders"] for b in usage["buckets"]), usage["totals"]["renders"])
        self.assertGreaterEqual(self.owner.usage()["totals"]["renders"], 1)  # the last 7 days by day
        past = self.owner.usage(from_="2020-01-01", to="2020-01-03")
        self.assertEqual((past["totals"]["renders"], len(past["buckets"])), (0, 2))
        self.assertTrue(past["from"].startswith("2020-01-01"), past["from"])
        with self.assertRaises(ImprintError) as bad:
            self.owner.usage(granularity="minute")
        self.assertEqual((bad.exception.status, bad.exception.field), (400, "granularity"))

    def test_webhooks(self):
        hook_url = f"http://127.0.0.1:{self.receiver.server_address[1]}/hook"
        created = self.owner.create_webhook(hook_url, events=["render.completed"], description="py")
        self.assertTrue(created["id"].startswith("whk_"), created)
        self.assertEqual((created["url"], created["events"], created["description"]),
                         (hook_url, ["render.completed"], "py"))
        secret = created["secret"]
        self.assertTrue(secret.startswith("whsec_"), secret)
        one = self.owner.get_webhook(created["id"])
        self.assertEqual(one["url"], hook_url)
        self.assertNotIn("secret", one)
        listed = self.owner.list_webhooks(per_page=100)
        self.assertIn(created["id"], [w["id"] for w in listed["list"]])
        self.assertNotIn(secret, json.dumps(listed))
        # A key with the webhooks scope manages them without a session.
        key = Client(self.url, api_key=self.owner.create_api_key("hooks", scopes=["webhooks"])["token"])
        self.assertIn(created["id"], [w["id"] for w in key.list_webhooks()["list"]])
        with self.assertRaises(ImprintError) as refused:  # loopback by a name the allowlist lacks
            self.owner.create_webhook(f"http://localhost:{self.receiver.server_address[1]}/hook")
        self.assertEqual((refused.exception.status, refused.exception.code, refused.exception.field),
                         (422, "url_refused", "url"))

        test = self.owner.test_webhook(created["id"])
        delivery_id = test["id"]
        self.assertTrue(delivery_id.startswith("msg_"), test)
        self.assertEqual(test["payload"]["type"], "webhook.test")
        headers, body = wait_for("test message", lambda: self.receiver.messages(delivery_id))[0]
        self.assertEqual(json.loads(body)["type"], "webhook.test")
        # Signed under the secret the create showed (Standard Webhooks).
        mac = hmac.new(base64.b64decode(secret[len("whsec_"):]),
                       f"{delivery_id}.{headers['webhook-timestamp']}.".encode() + body, hashlib.sha256).digest()
        self.assertIn("v1," + base64.b64encode(mac).decode(), headers["webhook-signature"].split())

        def delivered():
            found = [d for d in self.owner.list_deliveries(created["id"])["list"] if d["id"] == delivery_id]
            return found[0] if found and found[0]["state"] == "delivered" else None
        delivery = wait_for("delivered state", delivered)
        self.assertEqual((delivery["eventType"], delivery["lastStatus"]), ("webhook.test", 204))

        replayed = self.owner.replay_delivery(created["id"], delivery_id)
        self.assertEqual((replayed["id"], replayed["state"]), (delivery_id, "pending"))
        wait_for("replayed message", lambda: len(self.receiver.messages(delivery_id)) >= 2)
        self.assertEqual(self.owner.list_deliveries(created["id"])["count"], 1)  # the same delivery again
        with self.assertRaises(ImprintError) as missing:
            self.owner.replay_delivery(created["id"], "msg_missing")
        self.assertEqual((missing.exception.status, missing.exception.code), (404, "delivery_not_found"))

        self.owner.delete_webhook(created["id"])
        with self.assertRaises(ImprintError) as gone:
            self.owner.get_webhook(created["id"])
        self.assertEqual((gone.exception.status, gone.exception.code), (404, "webhook_not_found"))
        self.assertNotIn(created["id"], [w["id"] for w in self.owner.list_webhooks(per_page=100)["list"]])

    def test_me_and_patterns(self):
        me = self.owner.me()
        self.assertEqual((me["user"]["email"], me["space"]["name"], me["role"]), ("o@a.test", "alpha", "owner"))
        self.assertNotIn("token", me)
        other = Client(self.url)
        other.login("o@a.test", PASSWORD)
        self.assertEqual(other.me()["user"]["id"], me["user"]["id"])
        other.logout()
        with self.assertRaises(ImprintError) as out:
            other.me()
        self.assertEqual(out.exception.status, 401)

        patterns = Client(self.url).patterns()  # no credentials needed
        self.assertTrue(patterns, "the catalog lists patterns")
        first = patterns[0]
        self.assertTrue(first["key"] and first["variants"], first)
        name = f"{first['key']}-{first['variants'][0]['key']}"
        status, _, body = fetch(f"{self.url}/api/v1/render?pattern={urllib.parse.quote(name)}&width=40&height=20")
        self.assertEqual((status, png_size(body)), (200, (40, 20)))


if __name__ == "__main__":
    unittest.main()
