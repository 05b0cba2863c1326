"""docs/python.md's example, as written, against the real server: the ```python block
whose first line is `# og_images.py` is written to a file and imported."""

import importlib.util
import os
import re
import struct
import sys
import tempfile
import unittest
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from imprint_client import Client  # noqa: E402
from world import PASSWORD, World  # noqa: E402

DOC = os.path.join(os.path.dirname(__file__), "../../../docs/python.md")


class DocsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.world = World()
        owner = Client(cls.world.url)
        owner.login("o@a.test", PASSWORD)
        signing = owner.create_signing_key("docs")
        tpl = owner.create_template({"width": 300, "height": 150, "variables": [{"name": "title", "default": ""}],
                                     "root": {"type": "div", "props": {"style": {"display": "flex"},
                                                                       "children": ["{{title}}"]}}})
        cls.page_id = owner.create_page(tpl["id"], publish=True)["id"]
        os.environ.update(IMPRINT_URL=cls.world.url, IMPRINT_API_KEY=owner.create_api_key("docs")["token"],
                          IMPRINT_SIGNING_KEY_ID=signing["id"], IMPRINT_SIGNING_SECRET=signing["secret"])
        with open(DOC, encoding="utf-8") as f:
            m = re.search(r"```python\n# og_images\.py\n(.*?)```", f.read(), re.S)
        assert m, "docs/python.md has its og_images.py block"
        cls.tmp = tempfile.TemporaryDirectory()
        path = os.path.join(cls.tmp.name, "og_images.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(m.group(1))
        spec = importlib.util.spec_from_file_location("og_images", path)
        cls.example = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cls.example)

    @classmethod
    def tearDownClass(cls):
        cls.world.stop()
        cls.tmp.cleanup()
        for name in ("IMPRINT_URL", "IMPRINT_API_KEY", "IMPRINT_SIGNING_KEY_ID", "IMPRINT_SIGNING_SECRET"):
            os.environ.pop(name, None)

    def test_card_png(self):
        png = self.example.card_png("Hello")
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual(struct.unpack(">II", png[16:24]), (1200, 630))

    def test_refusal(self):
        self.assertEqual(self.example.refusal({"root": {"type": 3}})[:20], "400 invalid_template")
        self.assertIn("template.root", self.example.refusal({"root": {"type": 3}}))

    def test_og_image_url(self):
        with urllib.request.urlopen(self.example.og_image_url(self.page_id, "Hi")) as answer:
            self.assertEqual(answer.status, 200)
            self.assertEqual(answer.headers["Content-Type"], "image/png")


if __name__ == "__main__":
    unittest.main()
