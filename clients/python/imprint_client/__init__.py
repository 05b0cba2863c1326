"""Imprint from Python, standard library only (urllib, hmac, json): signed render URLs,
inline and page renders, render jobs (batches), templates (and their versions) and pages,
meta tags, fonts and images, API and signing keys, usage and webhooks (docs/python.md,
docs/api.md).

    from imprint_client import Client, sign_render_url
    imprint = Client("https://img.example.com", api_key="imp_…")
    png = imprint.render_inline({"width": 1200, "height": 630, "root": {...}}, tweaks={"title": "Hi"})
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple
from urllib.parse import quote

__all__ = ["Client", "ImprintError", "sign_render_url", "canonical_query", "signature", "font_media_type",
           "image_media_type"]
__version__ = "0.1.0"

RENDER_PATH = "/api/v1/render"

# Retries (docs/python.md, "Retries"): the answers worth asking again for, and the longest
# wait between two attempts, in seconds.
RETRY_STATUSES = (502, 503, 504)
MAX_RETRY_WAIT = 10.0


class ImprintError(Exception):
    """A refusal of the server (RFC 9457 problem+json): `status`, `code`, `field`, `detail`."""

    def __init__(self, status: int, code: str, field: Optional[str], detail: str, body: Any = None):
        super().__init__(f"Imprint {status} {code}" + (f" ({field})" if field else "") + f": {detail}")
        self.status = status
        self.code = code
        self.field = field
        self.detail = detail
        self.body = body


def _api_base(url: Optional[str]) -> str:
    base = url or os.environ.get("IMPRINT_URL")
    if not base:
        raise ValueError("set IMPRINT_URL (the server's base URL) or pass url")
    base = base.rstrip("/")
    return base if base.endswith("/api/v1") else base + "/api/v1"


def _rfc3986(text: str) -> str:
    # quote(safe="") keeps exactly RFC 3986's unreserved characters (Python 3.7+) and
    # encodes the UTF-8 bytes in upper-case hex, as the server's canonical string does.
    return quote(text, safe="")


def _pairs(params: Mapping[str, Any]) -> List[Tuple[str, str]]:
    out: List[Tuple[str, str]] = []
    for name, value in params.items():
        if value is None:
            continue
        if name == "tweaks" and isinstance(value, Mapping):
            out.extend((f"tweaks.{k}", _text(v)) for k, v in value.items())
        else:
            out.append((name, _text(value)))
    return out


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def canonical_query(items: Iterable[Tuple[str, str]]) -> str:
    """The signed part of a render URL's query (docs/api.md, "The signature"): every item
    but `sig`, name and value RFC 3986-encoded, sorted by name then value, joined with &."""
    encoded = sorted((_rfc3986(k), _rfc3986(v)) for k, v in items if k != "sig")
    return "&".join(f"{k}={v}" for k, v in encoded)


def signature(secret: str, canonical: str) -> str:
    """base64url (no padding) of HMAC-SHA256 of `canonical` under `secret`, both UTF-8."""
    mac = hmac.new(secret.encode("utf-8"), canonical.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


def sign_render_url(
    kid: str,
    secret: str,
    params: Mapping[str, Any],
    url: Optional[str] = None,
    expires_in: Optional[int] = None,
    exp: Optional[int] = None,
) -> str:
    """A signed render URL for `<meta property="og:image">`: the URL `imprint url sign`
    prints for the same parameters. `params` are the render fields (`pageId` required by
    the server; `tweaks` a dict, sent as `tweaks.NAME`); `expires_in` seconds from now or
    `exp` Unix seconds set an expiry; `url` defaults to IMPRINT_URL."""
    items = [(k, v) for k, v in _pairs(params) if k not in ("kid", "exp", "sig")]
    items.append(("kid", kid))
    if exp is None and expires_in:
        exp = int(time.time()) + int(expires_in)
    if exp is not None:
        items.append(("exp", str(int(exp))))
    query = canonical_query(items)
    sig = signature(secret, f"{RENDER_PATH}\n{query}")
    return f"{_api_base(url)}/render?{query}&sig={sig}"


def font_media_type(data: bytes) -> str:
    """The media type of a font file from its first bytes: WOFF, WOFF2, CFF OpenType, else TrueType."""
    return {b"wOFF": "font/woff", b"wOF2": "font/woff2", b"OTTO": "font/otf"}.get(bytes(data[:4]), "font/ttf")


def image_media_type(data: bytes) -> str:
    """The media type of an image file from its first bytes: PNG, JPEG, GIF, WebP or SVG,
    else application/octet-stream (the server sniffs the bytes itself either way)."""
    head = bytes(data[:1024])
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if text.startswith(b"<svg") or (text.startswith(b"<") and b"<svg" in text):
        return "image/svg+xml"
    return "application/octet-stream"


def _repeatable(method: str, path: str, headers: Mapping[str, str]) -> bool:
    """Whether a request may be sent again after a failure without doing twice what it does:
    a GET or HEAD, a render (POST /render stores nothing a second one would duplicate), or
    a request with an Idempotency-Key (the server answers its retry with the first answer,
    docs/api.md "Retries")."""
    return (method in ("GET", "HEAD") or path.split("?", 1)[0] == "/render"
            or any(name.lower() == "idempotency-key" for name in headers))


def _retry_wait(headers: Mapping[str, str], attempt: int) -> float:
    """Seconds to wait before attempt `attempt` + 1: the answer's Retry-After (seconds)
    when it has one, else 0.5 s doubled per attempt; at most MAX_RETRY_WAIT."""
    after = next((v for k, v in headers.items() if k.lower() == "retry-after"), None)
    if after is not None and after.strip().isdigit():
        return min(float(after.strip()), MAX_RETRY_WAIT)
    return min(0.5 * (2 ** attempt), MAX_RETRY_WAIT)


def _new_key(key: Optional[str]) -> str:
    """The caller's Idempotency-Key, or one of the client's own, so that a create is retried
    safely by default."""
    return key or str(uuid.uuid4())


class Client:
    """One server and its credentials: an API key (`imp_…`, for renders; with the
    `content` scope also templates, pages, fonts and assets; with `webhooks` webhooks)
    and/or a session (`ses_…` from login(), for keys, signing keys, usage, webhooks,
    templates and pages). Methods return the answer's `data`
    (dicts), or bytes for image renders, and raise ImprintError for a 4xx/5xx.

    `retries` (default 2; 0 turns them off) is how many times a request that is safe to
    repeat is sent again after no answer (a refused, reset or closed connection; not a
    timeout), a 502, 503 or 504, or a 409 `idempotency_key_in_use`, waiting the answer's
    Retry-After or 0.5, 1, 2 … s (at most 10). Safe to repeat: GET, renders, and the creates,
    which send an Idempotency-Key of their own when given none (docs/python.md, "Retries")."""

    def __init__(self, url: Optional[str] = None, api_key: Optional[str] = None, session: Optional[str] = None,
                 timeout: float = 60.0, retries: int = 2):
        self.base = _api_base(url)
        self.api_key = api_key if api_key is not None else os.environ.get("IMPRINT_API_KEY")
        self.session = session
        self.timeout = timeout
        self.retries = max(0, int(retries))

    # ---- transport

    def request(self, method: str, path: str, body: Any = None, token: Optional[str] = None,
                headers: Optional[Mapping[str, str]] = None) -> Tuple[int, Dict[str, str], bytes]:
        """One request to `/api/v1` + `path` with `body` as JSON (or as is, when bytes):
        (status, headers, body bytes); ImprintError when not 2xx. A request safe to repeat
        is sent again as the class says (`retries`); the last failure is what is raised."""
        data = None
        all_headers = {"Accept": "application/json, image/*"}
        if isinstance(body, (bytes, bytearray)):
            data = bytes(body)  # a file (a font upload): its Content-Type comes in `headers`
        elif body is not None:
            data = json.dumps(body).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        credential = token or self.session or self.api_key
        if credential:
            all_headers["Authorization"] = f"Bearer {credential}"
        all_headers.update(headers or {})
        retries = self.retries if _repeatable(method, path, all_headers) else 0
        attempt = 0
        while True:
            req = urllib.request.Request(self.base + path, data=data, method=method, headers=all_headers)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as answer:
                    return answer.status, dict(answer.headers.items()), answer.read()
            except urllib.error.HTTPError as e:
                raw = e.read()
                try:
                    problem = json.loads(raw)
                except ValueError:
                    problem = {}
                code = problem.get("code", "http_error") if isinstance(problem, dict) else "http_error"
                transient = e.code in RETRY_STATUSES or (e.code == 409 and code == "idempotency_key_in_use")
                if not (transient and attempt < retries):
                    if not isinstance(problem, dict):
                        problem = {}
                    raise ImprintError(e.code, code, problem.get("field"),
                                       problem.get("detail", raw.decode("utf-8", "replace") or e.reason),
                                       problem) from None
                wait = _retry_wait(dict(e.headers.items()), attempt)
            except (urllib.error.URLError, ConnectionError, http.client.HTTPException) as e:
                reason = getattr(e, "reason", e)
                if isinstance(reason, (socket.timeout, TimeoutError)) or attempt >= retries:
                    raise
                wait = _retry_wait({}, attempt)
            time.sleep(wait)
            attempt += 1

    def _data(self, method: str, path: str, body: Any = None, token: Optional[str] = None,
              headers: Optional[Mapping[str, str]] = None) -> Any:
        _, _, raw = self.request(method, path, body, token, headers)
        answer = json.loads(raw) if raw else {}
        return answer.get("data", answer) if isinstance(answer, dict) else answer

    # ---- renders

    def render_inline(self, template: Mapping[str, Any], **fields: Any) -> bytes:
        """An inline render (docs/api.md, "Inline renders"): `template` is a template
        document; `fields` the render fields (tweaks, format, width, height, scale,
        renderType, emojiType, quality, …). The image bytes; nothing is stored."""
        body = dict(fields, template=dict(template), output="binary")
        return self.request("POST", "/render", body, token=self.api_key)[2]

    def render_page(self, page_id: str, **fields: Any) -> bytes:
        """A page render (published snapshot; draft=True for the live page): the image bytes."""
        body = dict(fields, pageId=page_id, output="binary")
        return self.request("POST", "/render", body, token=self.api_key)[2]

    def render_json(self, **fields: Any) -> Dict[str, Any]:
        """A render answered as JSON (output json: the stored `file`; dataurl: `dataUrl`)."""
        _, _, raw = self.request("POST", "/render", fields, token=self.api_key)
        return json.loads(raw)["data"]

    # ---- render jobs (docs/api.md, "Jobs")

    def create_job(self, items: List[Mapping[str, Any]], idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Queues `items` (each a body of POST /render: a page or inline render) as one job:
        the job (`id`, `state`, `counts`); every item stores its image."""
        headers = {"Idempotency-Key": _new_key(idempotency_key)}
        return self._data("POST", "/renders", {"items": [dict(item) for item in items]}, token=self.api_key,
                          headers=headers)

    def get_job(self, job_id: str) -> Dict[str, Any]:
        """A job with its `items` (each `state`, and when done `file`, `width`, `height`, `alt`)."""
        return self._data("GET", f"/renders/{quote(job_id, safe='')}", token=self.api_key)

    def wait_job(self, job_id: str, timeout: float = 300.0, interval: float = 0.5) -> Dict[str, Any]:
        """get_job() until the job has its `finishedAt` (every item has its result); TimeoutError
        after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.get_job(job_id)
            if job.get("finishedAt"):
                return job
            if time.monotonic() >= deadline:
                raise TimeoutError(f"job {job_id} is still {job.get('state')} after {timeout} s")
            time.sleep(interval)

    def get_file(self, url_or_name: str) -> bytes:
        """A stored file's bytes: a job item's `file.url`, or its name (`SHA256.png`)."""
        name = url_or_name.rsplit("/", 1)[-1]
        return self.request("GET", f"/files/{quote(name, safe='')}", token=self.api_key)[2]

    # ---- fonts (docs/fonts-and-images.md; a session, or a key with the content scope)

    def upload_font(self, data: bytes, family: Optional[str] = None, weight: Optional[int] = None,
                    style: Optional[str] = None, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Uploads a TTF, OTF, WOFF or WOFF2 file to the space; `family`, `weight`, `style`
        replace the names in the file. The font (`id`, `family`, `weight`, `style`, …,
        `deduplicated` true when the same bytes were stored before)."""
        query = {k: v for k, v in (("family", family), ("weight", weight), ("style", style)) if v is not None}
        path = "/fonts" + ("?" + urllib.parse.urlencode(query) if query else "")
        return self._data("POST", path, bytes(data), token=self.session or self.api_key,
                          headers={"Content-Type": font_media_type(data),
                                   "Idempotency-Key": _new_key(idempotency_key)})

    def list_fonts(self) -> List[Dict[str, Any]]:
        return self._data("GET", "/fonts?perPage=100", token=self.session or self.api_key)["list"]

    def delete_font(self, font_id: str) -> None:
        self._data("DELETE", f"/fonts/{quote(font_id, safe='')}", token=self.session or self.api_key)

    # ---- images (assets; docs/fonts-and-images.md; a session, or a key with the content scope)

    def upload_asset(self, data: bytes, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Uploads a PNG, JPEG, GIF, WebP or SVG image to the space (the server reads the
        format from the bytes). The asset (`id`, `url`, `width`, `height`, `contentType`,
        `bytes`, `createdAt`, `deduplicated` true when the same bytes were stored before);
        templates name it `asset:ID` or by its `url`."""
        return self._data("POST", "/assets", bytes(data), token=self.session or self.api_key,
                          headers={"Content-Type": image_media_type(data),
                                   "Idempotency-Key": _new_key(idempotency_key)})

    def list_assets(self, page: int = 1, per_page: int = 20) -> Dict[str, Any]:
        """A page of the space's assets, newest first: `list`, `count`, `pagesCount`, `page`, `perPage`."""
        return self._data("GET", f"/assets?page={int(page)}&perPage={int(per_page)}",
                          token=self.session or self.api_key)

    def delete_asset(self, asset_id: str) -> None:
        self._data("DELETE", f"/assets/{quote(asset_id, safe='')}", token=self.session or self.api_key)

    # ---- sessions

    def login(self, email: str, password: str, space: Optional[str] = None) -> Dict[str, Any]:
        """POST /auth/login; keeps the session token for later calls. The login's data."""
        body = {"email": email, "password": password}
        if space:
            body["space"] = space
        data = self._data("POST", "/auth/login", body, token="")
        self.session = data["token"]
        return data

    def logout(self) -> None:
        self._data("POST", "/auth/logout")
        self.session = None

    # ---- templates and pages (session, or a key with the content scope)

    def create_template(self, document: Mapping[str, Any], idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        return self._data("POST", "/templates", {"document": dict(document)},
                          headers={"Idempotency-Key": _new_key(idempotency_key)})

    def list_templates(self) -> List[Dict[str, Any]]:
        return self._data("GET", "/templates")["list"]

    def get_template(self, template_id: str) -> Dict[str, Any]:
        return self._data("GET", f"/templates/{quote(template_id, safe='')}")

    def update_template(self, template_id: str, document: Mapping[str, Any]) -> Dict[str, Any]:
        return self._data("PUT", f"/templates/{quote(template_id, safe='')}", {"document": dict(document)})

    def delete_template(self, template_id: str) -> None:
        self._data("DELETE", f"/templates/{quote(template_id, safe='')}")

    def list_template_versions(self, template_id: str, page: int = 1, per_page: int = 20) -> Dict[str, Any]:
        """A page of a template's versions, newest first: `list` (each `templateId`, `version`,
        `name`, `createdAt`, `createdBy`), `count`, `pagesCount`, `page`, `perPage`."""
        return self._data("GET", f"/templates/{quote(template_id, safe='')}/versions"
                                 f"?page={int(page)}&perPage={int(per_page)}")

    def get_template_version(self, template_id: str, version: int) -> Dict[str, Any]:
        """Version `version` of a template with its `document`; 404 `template_version_not_found`."""
        return self._data("GET", f"/templates/{quote(template_id, safe='')}/versions/{int(version)}")

    def rollback_template(self, template_id: str, version: int,
                          idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Saves version `version`'s document again as the template's newest version (nothing
        is deleted): the template, with its new `version` and `document`."""
        return self._data("POST", f"/templates/{quote(template_id, safe='')}/rollback", {"version": int(version)},
                          headers={"Idempotency-Key": _new_key(idempotency_key)})

    def create_page(self, template_id: str, name: Optional[str] = None, variables: Optional[Mapping[str, Any]] = None,
                    publish: bool = False, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        body: Dict[str, Any] = {"templateId": template_id}
        if name is not None:
            body["name"] = name
        if variables is not None:
            body["variables"] = dict(variables)
        if publish:
            body["publish"] = True
        return self._data("POST", "/pages", body, headers={"Idempotency-Key": _new_key(idempotency_key)})

    def list_pages(self) -> List[Dict[str, Any]]:
        return self._data("GET", "/pages")["list"]

    def get_page(self, page_id: str) -> Dict[str, Any]:
        return self._data("GET", f"/pages/{quote(page_id, safe='')}")

    def update_page(self, page_id: str, **changes: Any) -> Dict[str, Any]:
        """Changes any of templateId, name, variables (the live page; publish to show it)."""
        return self._data("PUT", f"/pages/{quote(page_id, safe='')}", changes)

    def publish_page(self, page_id: str, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        return self._data("POST", f"/pages/{quote(page_id, safe='')}/publish",
                          headers={"Idempotency-Key": _new_key(idempotency_key)})

    def delete_page(self, page_id: str) -> None:
        self._data("DELETE", f"/pages/{quote(page_id, safe='')}")

    def page_meta(self, page_id: str, signing_key: Optional[str] = None, **fields: Any) -> Any:
        """The `og:`/`twitter:` tags of a published page (docs/api.md, "Meta tags"), its image
        a URL signed with signing key `signing_key` (`sgk_…`, required by the server);
        `fields` the query (`size`, `expiresInSeconds`). A dict: `pageId`, `size`, `imageUrl`,
        `width`, `height`, `contentType`, `alt`, `templateVersion`, `tags` ({"og:image": …}),
        `html`; with format="html" the `<meta>` lines as a string. Needs an owner's or
        admin's session, or an API key with the render scope."""
        query = dict(fields, signingKey=signing_key)
        path = f"/pages/{quote(page_id, safe='')}/meta"
        items = _pairs(query)
        if items:
            path += "?" + urllib.parse.urlencode(items)
        if query.get("format") == "html":
            return self.request("GET", path, token=self.session or self.api_key)[2].decode("utf-8")
        return self._data("GET", path, token=self.session or self.api_key)

    # ---- API keys and signing keys (an owner's or admin's session)

    def create_api_key(self, name: str, scopes: Optional[List[str]] = None,
                       expires_at: Optional[str] = None) -> Dict[str, Any]:
        """A new API key; its `token` is in this answer only."""
        body: Dict[str, Any] = {"name": name}
        if scopes is not None:
            body["scopes"] = scopes
        if expires_at is not None:
            body["expiresAt"] = expires_at
        return self._data("POST", "/tokens/api-keys", body, token=self.session)

    def list_api_keys(self, page: int = 1, per_page: int = 20) -> Dict[str, Any]:
        return self._data("GET", f"/tokens/api-keys/index?page={int(page)}&perPage={int(per_page)}", token=self.session)

    def revoke_api_key(self, key_id: str) -> None:
        self._data("DELETE", f"/tokens/api-keys/{quote(key_id, safe='')}", token=self.session)

    def verify_api_key(self) -> Dict[str, Any]:
        """GET /tokens/verify with the API key: which key and space it is."""
        return self._data("GET", "/tokens/verify", token=self.api_key)

    def create_signing_key(self, name: str) -> Dict[str, Any]:
        """A new URL-signing key; its `secret` is in this answer only."""
        return self._data("POST", "/signing-keys", {"name": name}, token=self.session)

    def list_signing_keys(self, page: int = 1, per_page: int = 20) -> Dict[str, Any]:
        """A page of the active signing keys (without `secret`), newest first: `list`, `count`,
        `pagesCount`, `page`, `perPage`."""
        return self._data("GET", f"/signing-keys?page={int(page)}&perPage={int(per_page)}", token=self.session)

    def revoke_signing_key(self, key_id: str) -> None:
        self._data("DELETE", f"/signing-keys/{quote(key_id, safe='')}", token=self.session)

    def sign_url_on_server(self, key_id: str, url: str, expires_in: Optional[int] = None) -> str:
        """The render URL `url` (its path ending in /api/v1/render) signed by the server with
        signing key `key_id`, whose secret stays there; `expires_in` seconds from now adds
        `exp`. The signed URL string, as `imprint url sign` prints it."""
        body: Dict[str, Any] = {"url": url}
        if expires_in is not None:
            body["expiresInSeconds"] = int(expires_in)
        return self._data("POST", f"/signing-keys/{quote(key_id, safe='')}/sign", body, token=self.session)["url"]

    def sign_render_url(self, kid: str, secret: str, params: Mapping[str, Any], expires_in: Optional[int] = None,
                        exp: Optional[int] = None) -> str:
        """sign_render_url() on this client's server."""
        return sign_render_url(kid, secret, params, url=self.base, expires_in=expires_in, exp=exp)

    # ---- the session, usage and patterns

    def me(self) -> Dict[str, Any]:
        """GET /auth/me: the session's `user` {id, email}, `space` {id, name, plan}, `role`,
        `expiresAt` (login()'s answer without `token`)."""
        return self._data("GET", "/auth/me", token=self.session)

    def usage(self, from_: Any = None, to: Any = None, granularity: Optional[str] = None,
              group: Optional[str] = None) -> Dict[str, Any]:
        """The session space's render usage (docs/api.md, "Usage"; an owner's or admin's
        session): `from_` (the API's `from`, inclusive; default 7 days before `to`) and `to`
        (exclusive; default now) are RFC 3339 strings, datetimes or dates; `granularity`
        "hour" or "day"; `group` "key", "engine", "format" or "code". A dict: `from`, `to`,
        `granularity`, `group`, `totals` (`renders`, `errors`, `cacheHits`, `bytes`, `p50Ms`,
        `p95Ms`, `errorsByCode`), `buckets` and, with `group`, `groups`."""
        query = [(name, value.isoformat() if hasattr(value, "isoformat") else str(value))
                 for name, value in (("from", from_), ("to", to), ("granularity", granularity), ("group", group))
                 if value is not None]
        return self._data("GET", "/usage" + ("?" + urllib.parse.urlencode(query) if query else ""),
                          token=self.session)

    def patterns(self) -> List[Dict[str, Any]]:
        """The pattern catalog (no credentials needed): each `key`, `name`, `tileSize`,
        `defaultSize`, `variants` [{`key`, `name`, `pattern`, `colors`}]; render one with
        render_json(pattern="KEY-VARIANT") or a GET of /render?pattern=…"""
        return self._data("GET", "/patterns")["list"]

    # ---- webhooks (an owner's or admin's session, or a key with the webhooks scope)

    def create_webhook(self, url: str, events: Optional[List[str]] = None,
                       description: Optional[str] = None) -> Dict[str, Any]:
        """Registers an endpoint for `events` (default: every event). The webhook (`id`, `url`,
        `description`, `events`, `createdAt`) with its `secret` (`whsec_…`), shown in this
        answer only. Sent once: it takes no Idempotency-Key (its answer holds the secret)."""
        body: Dict[str, Any] = {"url": url}
        if events is not None:
            body["events"] = list(events)
        if description is not None:
            body["description"] = description
        return self._data("POST", "/webhooks", body, token=self.session or self.api_key)

    def list_webhooks(self, page: int = 1, per_page: int = 20) -> Dict[str, Any]:
        """A page of the space's webhooks (without `secret`), newest first: `list`, `count`,
        `pagesCount`, `page`, `perPage`."""
        return self._data("GET", f"/webhooks?page={int(page)}&perPage={int(per_page)}",
                          token=self.session or self.api_key)

    def get_webhook(self, webhook_id: str) -> Dict[str, Any]:
        """A webhook without its secret; 404 `webhook_not_found`."""
        return self._data("GET", f"/webhooks/{quote(webhook_id, safe='')}", token=self.session or self.api_key)

    def delete_webhook(self, webhook_id: str) -> None:
        """Deletes a webhook: nothing more is sent to it, its pending deliveries end `failed`."""
        self._data("DELETE", f"/webhooks/{quote(webhook_id, safe='')}", token=self.session or self.api_key)

    def list_deliveries(self, webhook_id: str, page: int = 1, per_page: int = 20) -> Dict[str, Any]:
        """A page of a webhook's deliveries, newest first: `list` (each `id` (`msg_…`, the
        `webhook-id` header), `eventType`, `state` (pending, delivered, failed),
        `attemptCount`, `lastStatus`, `lastError`, `payload`, `attempts`, …), `count`, …"""
        return self._data("GET", f"/webhooks/{quote(webhook_id, safe='')}/deliveries"
                                 f"?page={int(page)}&perPage={int(per_page)}", token=self.session or self.api_key)

    def replay_delivery(self, webhook_id: str, delivery_id: str) -> Dict[str, Any]:
        """Sends a delivery again (same `webhook-id` and body, a fresh retry window): the
        delivery, `pending` again; 404 `delivery_not_found` while an attempt is in flight."""
        return self._data("POST", f"/webhooks/{quote(webhook_id, safe='')}/deliveries/"
                                  f"{quote(delivery_id, safe='')}/replay", token=self.session or self.api_key)

    def test_webhook(self, webhook_id: str) -> Dict[str, Any]:
        """Queues a `webhook.test` message to this endpoint alone: the delivery (`id`, `state`,
        `payload`, …); list_deliveries() follows it."""
        return self._data("POST", f"/webhooks/{quote(webhook_id, safe='')}/test", token=self.session or self.api_key)
