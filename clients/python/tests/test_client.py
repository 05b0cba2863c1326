"""imprint_client against the real `imprint serve` (started here on a free port over a
temporary data directory made with the CLI): login, keys, templates and pages, page and
inline renders, and signed URLs byte for byte as `imprint url sign` makes them."""

import os
import re
import struct
import sys
import unittest
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from imprint_client import Client, ImprintError, sign_render_url  # noqa: E402
from world import CARD, PASSWORD, World, cli  # noqa: E402


def png_size(data):
    """(width, height) of PNG bytes, from the IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:16]
    return struct.unpack(">II", data[16:24])


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.world = World()
        cls.data_dir, cls.url = cls.world.data_dir, cls.world.url
        cls.owner = Client(cls.url)
        cls.owner.login("o@a.test", PASSWORD)

    @classmethod
    def tearDownClass(cls):
        cls.world.stop()

    def render_client(self):
        key = self.owner.create_api_key("render")
        self.assertEqual(key["scopes"], ["render"])
        return Client(self.url, api_key=key["token"])

    def test_templates_pages_and_page_renders(self):
        tpl = self.owner.create_template(CARD, idempotency_key="py-tpl-1")
        self.assertTrue(tpl["id"].startswith("tpl_"))
        self.assertIn(tpl["id"], [t["id"] for t in self.owner.list_templates()])
        self.assertEqual(self.owner.get_template(tpl["id"])["document"]["width"], 160)
        page = self.owner.create_page(tpl["id"], name="Launch", variables={"bg": "#ff0000"}, publish=True)
        self.assertEqual(self.owner.get_page(page["id"])["name"], "Launch")
        self.owner.update_page(page["id"], name="Launch 2")
        self.assertEqual(self.owner.publish_page(page["id"])["name"], "Launch 2")
        self.assertIn(page["id"], [p["id"] for p in self.owner.list_pages()])

        renders = self.render_client()
        self.assertEqual(png_size(renders.render_page(page["id"])), (160, 80))
        self.assertEqual(png_size(renders.render_page(page["id"], width=40, height=20)), (40, 20))
        stored = renders.render_json(pageId=page["id"], tweaks={"bg": "#00ff00"})
        self.assertTrue(stored["file"]["url"].endswith(".png"))
        with self.assertRaises(ImprintError) as refused:
            renders.render_page("pg_missing")
        self.assertEqual(refused.exception.status, 404)

        self.owner.delete_page(page["id"])
        self.owner.delete_template(tpl["id"])
        with self.assertRaises(ImprintError) as gone:
            self.owner.get_template(tpl["id"])
        self.assertEqual(gone.exception.code, "template_not_found")

    def test_inline_renders(self):
        renders = self.render_client()
        png = renders.render_inline(CARD, tweaks={"bg": "#ff0000"}, width=100, height=50)
        self.assertEqual(png_size(png), (100, 50))
        webp = renders.render_inline(CARD, format="webp")
        self.assertEqual(webp[8:12], b"WEBP")
        again = renders.render_json(template=CARD, output="dataurl")
        self.assertTrue(again["dataUrl"].startswith("data:image/png;base64,"))
        with self.assertRaises(ImprintError) as bad:
            renders.render_inline(dict(CARD, root={"type": 7}))
        self.assertEqual(bad.exception.status, 400)
        self.assertEqual(bad.exception.code, "invalid_template")
        self.assertTrue(bad.exception.field.startswith("template.root"), bad.exception.field)
        # Nothing was stored.
        self.assertEqual([t for t in self.owner.list_templates() if t["name"] == "Card"], [])

    def test_jobs_render_a_batch_and_store_each_image(self):
        renders = self.render_client()
        job = renders.create_job([{"template": CARD, "tweaks": {"bg": "#ff0000"}},
                                  {"template": CARD, "width": 80, "height": 40, "format": "webp"}],
                                 idempotency_key="py-job-1")
        self.assertTrue(job["id"].startswith("job_"))
        self.assertEqual(job["counts"]["total"], 2)
        done = renders.wait_job(job["id"], timeout=60, interval=0.1)
        self.assertEqual(done["state"], "completed", done)
        first, second = done["items"]
        self.assertEqual(png_size(renders.get_file(first["file"]["url"])), (160, 80))
        self.assertEqual(renders.get_file(second["file"]["url"])[8:12], b"WEBP")
        self.assertEqual((second["width"], second["height"]), (80, 40))
        with self.assertRaises(ImprintError) as bad:
            renders.create_job([{"template": CARD, "format": "gif"}])
        self.assertEqual((bad.exception.status, bad.exception.field), (400, "items[0].format"))

    def test_fonts_upload_list_and_draw(self):
        with open(os.path.join(os.path.dirname(__file__), "../../../tests/http/fonts/ComicNeue-Regular.woff2"),
                  "rb") as f:
            data = f.read()
        font = self.owner.upload_font(data, family="Brand Comic", weight=400)
        self.assertEqual((font["family"], font["weight"], font["format"]), ("Brand Comic", 400, "woff2"))
        self.assertFalse(font["deduplicated"])
        self.assertTrue(self.owner.upload_font(data)["deduplicated"])  # the same bytes: stored once
        self.assertIn(font["id"], [f["id"] for f in self.owner.list_fonts()])
        card = dict(CARD, width=300, height=60, root={"type": "div", "props": {
            "style": {"display": "flex", "fontSize": 32, "background": "#fff", "width": "100%", "height": "100%"},
            "children": [{"type": "span", "props": {"style": {"fontFamily": "Brand Comic"}, "children": "Hello"}}]}})
        renders = self.render_client()
        with_font = renders.render_inline(card)
        self.owner.delete_font(font["id"])
        self.assertNotEqual(renders.render_inline(card), with_font)  # the font drew the text
        with self.assertRaises(ImprintError) as bad:
            self.owner.upload_font(b"not a font")
        self.assertEqual((bad.exception.status, bad.exception.code), (400, "invalid_font"))

    def test_keys(self):
        key = self.owner.create_api_key("temp", scopes=["render", "content"])
        self.assertEqual(sorted(key["scopes"]), ["content", "render"])
        client = Client(self.url, api_key=key["token"])
        self.assertEqual(client.verify_api_key()["keyId"], key["id"])
        # The content scope: templates without a session.
        tpl = client.create_template(CARD)
        client.delete_template(tpl["id"])
        self.assertIn(key["id"], [k["id"] for k in self.owner.list_api_keys()["list"]])
        self.owner.revoke_api_key(key["id"])
        with self.assertRaises(ImprintError) as revoked:
            client.verify_api_key()
        self.assertEqual(revoked.exception.status, 401)

    def test_signed_urls_match_the_cli_and_are_accepted(self):
        tpl = self.owner.create_template(CARD)
        page = self.owner.create_page(tpl["id"], publish=True)
        signing = self.owner.create_signing_key("og")
        params = {"pageId": page["id"], "format": "png", "width": 120,
                  "tweaks": {"bg": "#00ff00", "note é": "a b+c/~!*'()"}}
        ours = sign_render_url(signing["id"], signing["secret"], params, url=self.url)
        query = "&".join(f"{urllib.parse.quote(k, safe='')}={urllib.parse.quote(v, safe='')}" for k, v in [
            ("pageId", page["id"]), ("format", "png"), ("width", "120"), ("tweaks.bg", "#00ff00"),
            ("tweaks.note é", "a b+c/~!*'()")])
        theirs = cli(self.data_dir, "url", "sign", "--space", "alpha", "--signing-key", signing["id"],
                     f"{self.url}/api/v1/render?{query}").strip()
        self.assertEqual(ours, theirs)
        with_exp = cli(self.data_dir, "url", "sign", "--space", "alpha", "--signing-key", signing["id"], "--expires",
                       "3600", f"{self.url}/api/v1/render?{query}").strip()
        exp = int(re.search(r"[?&]exp=(\d+)", with_exp).group(1))
        self.assertEqual(self.owner.sign_render_url(signing["id"], signing["secret"], params, exp=exp), with_exp)
        # The server accepts what it signs (a tweak the template declares).
        accepted = sign_render_url(signing["id"], signing["secret"],
                                   {"pageId": page["id"], "width": 120, "tweaks": {"bg": "#00ff00"}},
                                   url=self.url, expires_in=600)
        with urllib.request.urlopen(accepted) as answer:
            self.assertEqual(answer.status, 200)
            self.assertEqual(png_size(answer.read()), (120, 80))
        with self.assertRaises(urllib.error.HTTPError) as tampered:
            urllib.request.urlopen(accepted.replace("width=120", "width=121"))
        self.assertEqual(tampered.exception.code, 403)
        self.owner.revoke_signing_key(signing["id"])


if __name__ == "__main__":
    unittest.main()
