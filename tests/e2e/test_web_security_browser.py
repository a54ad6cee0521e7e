"""Web security in a real headless Chromium against a real uvicorn server.

* XSS: a scripted run (tests/fixtures/scripted/web_xss.json) whose messages, tool arguments,
  verdict summary and artifact carry real payloads — ``<script>``, ``<img onerror>``,
  ``javascript:`` links, ``<iframe>`` (src and srcdoc), ``<svg onload>``, ``<details ontoggle>``,
  DOM clobbering ids, ``data:`` links, an mXSS ``<math>`` nest, forms, objects, ``<meta refresh>``,
  ``<base>``, a tracking image and a fake verdict badge. The artifact's payload breaks out of the
  code fence of its source file, so it reaches the Markdown renderer as live HTML. Started from
  the UI and watched live, then opened in Run detail and Compare: no dialog fires, no handler,
  script, frame or ``javascript:`` URL is in the DOM, and the flag the payloads set stays unset.
* CSRF: pages on another origin (a foreign site, and another port of 127.0.0.1) try to start and
  cancel runs with a form post, ``no-cors`` fetches and a CORS fetch; nothing starts or stops, and
  every request that reaches the server is refused. With a token, the SameSite=Strict cookie is
  not sent by those pages at all.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from autogen_pse.web import create_app
from tests.e2e.browser_helpers import shot
from tests.web.web_helpers import ROOT, TOKEN, ServerThread, make_settings

pytestmark = pytest.mark.browser

SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"
XSS_MODEL = f"scripted:{SCRIPTED / 'web_xss.json'}"
SLOW_MODEL = f"scripted:{SCRIPTED / 'web_demo_slow.json'}"

#: Evaluated in the page: everything that would make injected markup dangerous, anywhere in the DOM.
INERT_JS = r"""() => {
  const all = [...document.querySelectorAll("*")];
  const bad = [];
  for (const el of all) {
    for (const a of el.attributes) {
      const name = a.name.toLowerCase();
      if (name.startsWith("on")) bad.push(`${el.tagName} ${name}`);
      if (["href", "src", "action", "formaction", "data", "xlink:href", "srcdoc", "background", "poster"]
            .includes(name) && /^\s*(javascript|vbscript|data:text)/i.test(a.value)) bad.push(`${el.tagName} ${name}=${a.value}`);
      if (name === "srcdoc") bad.push(`${el.tagName} srcdoc`);
    }
  }
  for (const s of document.scripts) {
    if (!s.src || new URL(s.src).origin !== location.origin) bad.push(`script ${s.src || s.textContent.slice(0, 40)}`);
  }
  for (const sel of ["iframe", "frame", "object", "embed", "base", "meta[http-equiv]", "math",
                     "svg:not(.usage-chart svg):not(.timeline svg):not(.series-chart svg)", "link:not([rel=stylesheet]):not([rel=icon])",
                     ".markdown form", ".turn form", ".markdown button", ".markdown style", ".markdown [style]",
                     "#__pse_clobber", "[name=__pse_clobber]"]) {
    for (const el of document.querySelectorAll(sel)) bad.push(`element ${sel}: ${el.outerHTML.slice(0, 80)}`);
  }
  return bad;
}"""


class Recorder:
    """ASGI wrapper that notes every HTTP request the app answered: method, path, the headers that
    matter here, and the status."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.seen: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode().lower(): v.decode("latin-1") for k, v in scope["headers"]}
        entry = {"method": scope["method"], "path": scope["path"], "origin": headers.get("origin"),
                 "site": headers.get("sec-fetch-site"), "cookie": "pse_token" in headers.get("cookie", ""),
                 "status": None}

        async def recording_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                entry["status"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        finally:
            self.seen.append(entry)


#: CSP reports Chromium raises while DOMPurify parses hostile HTML in its inert document (which
#: inherits the page's CSP): attribute handlers, style attributes and <base> are reported there, at
#: parse time, although nothing in an inert document can run (a <style> element is reported as
#: style-src-elem; the DOM checks below make sure none reaches the page). Anything else — a script
#: element, a frame, an image or a form target — would mean hostile markup reached the live page.
INERT_PARSE_DIRECTIVES = {"script-src-attr", "style-src-attr", "style-src-elem", "base-uri"}
COLLECT_CSP = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push({directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample}));"""


def _console_errors_but_inert_parse_reports(page: Any) -> list[str]:
    inert = re.compile(r"^(Executing inline event handler|Applying inline style|Setting the document's base URI)")
    # ("Applying inline style" covers both style attributes and <style> elements)
    return [e for e in page.console_errors if not e.startswith("Failed to load resource") and not inert.match(e)]


def _inert(page: Any, where: str) -> None:
    bad = page.evaluate(INERT_JS)
    assert bad == [], (where, bad)
    csp = page.evaluate("window.__csp || []")
    assert {v["directive"] for v in csp} <= INERT_PARSE_DIRECTIVES, (where, csp)
    assert page.evaluate("typeof window.__pse_xss") == "undefined", where
    assert page.evaluate("typeof window.__pse_clobber") == "undefined", where


@pytest.fixture
def xss_server(tmp_path: Path) -> Iterator[ServerThread]:
    settings = make_settings(tmp_path, model=XSS_MODEL, max_cycles=1)
    with ServerThread(create_app(settings)) as srv:
        yield srv


@pytest.mark.timeout(240)
def test_real_payloads_of_a_scripted_run_stay_inert(xss_server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    base = xss_server.base_url
    dialogs: list[str] = []
    popups: list[str] = []
    requests: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.context.on("page", lambda p: popups.append(p.url))
    page.on("request", lambda r: requests.append(r.url))
    page.add_init_script(COLLECT_CSP)

    # --- start from the UI and watch it live (payloads arrive over SSE) --------------------------
    page.goto(base + "/")
    card = page.locator('article[data-task="demo"]')
    expect(card.get_by_label("Model")).to_have_value(re.compile(r"web_xss\.json$"))
    card.get_by_role("button", name="Run").click()
    page.wait_for_url(re.compile(r"/runs/[0-9A-Z]{26}/live$"))
    run_id = page.url.rstrip("/").split("/")[-2]
    planner = page.locator('article.turn[data-agent="planner"] .turn-body').first
    expect(planner).to_contain_text("<script>alert('planner-script')", timeout=60_000)  # shown as text
    _inert(page, "live, mid-run")
    final = page.locator('[data-testid="final"]')
    expect(final).to_be_visible(timeout=120_000)
    expect(final.locator('[data-verdict="PASS"]')).to_be_visible()
    for details in page.locator("article.turn-tool_call details").all():  # tool arguments carry the file
        details.locator("summary").click()
    expect(page.locator("article.turn-tool_call pre").first).to_contain_text("onerror=")
    shot(page, "13-xss-live")
    _inert(page, "live, finished")

    # --- run detail: the artifact is rendered Markdown, sanitized ----------------------------------
    page.goto(f"{base}/runs/{run_id}")
    body = page.locator(".artifact-body")
    # The workspace file's backticks cannot close the artifact's longer fence: the payload stays code.
    expect(body.locator("pre").first).to_contain_text("## Injected heading")
    assert body.locator("h2").count() == 0
    expect(body).to_contain_text("FAKE PASS artifact")
    page.locator("details.messages summary").first.click()
    expect(page.get_by_text("OK <img src=x onerror=").first).to_be_visible()  # the verdict summary, as text
    _inert(page, "detail")
    assert body.locator("a[href^='javascript'], a[href^='data:'], img[src]").count() == 0
    spoof = body.locator("[class]:not([class^='language-']), [data-verdict], [style], "
                         "[id]:not([id^='user-content-']), [name]:not([name^='user-content-'])")
    assert spoof.count() == 0, spoof.evaluate_all("els => els.map(e => e.outerHTML.slice(0, 120))")
    for link in body.locator("a").all():  # click every surviving link: none may run anything
        link.click(modifiers=[], no_wait_after=True)
    for summary in body.locator("details summary").all():
        summary.click()  # ontoggle was removed
    time.sleep(0.5)
    shot(page, "14-xss-detail")
    _inert(page, "detail, after clicks")

    # --- compare (artifact diff) ------------------------------------------------------------------------
    page.goto(f"{base}/compare?a={run_id}&b={run_id}")
    expect(page.locator("table.compare")).to_be_visible()
    _inert(page, "compare")

    page.goto(f"{base}/runs/{run_id}/live")  # replayed from the store this time
    expect(page.locator('[data-testid="final"]')).to_be_visible(timeout=30_000)
    _inert(page, "live replay")

    assert dialogs == [], dialogs
    assert [p for p in popups if p.startswith("javascript") or p.startswith("data")] == [], popups
    assert not [u for u in requests if "tracker.invalid" in u or "evil.invalid" in u], "external request made"
    assert _console_errors_but_inert_parse_reports(page) == []


# --- cross-site requests ----------------------------------------------------------------------------
def _attacker_page(target: str, victim: str) -> str:
    body = json.dumps({"task": "demo"})
    return f"""<!doctype html><html><body>
<form id="start" method="POST" action="{target}/api/runs" enctype="text/plain">
  <input name='{{"task":"demo","x":"' value='"}}'></form>
<script>
window.results = {{}};
async function attack() {{
  const tries = {{
    nocors_start: () => fetch("{target}/api/runs", {{method: "POST", mode: "no-cors", credentials: "include",
                          headers: {{"Content-Type": "text/plain"}}, body: '{body}'}}),
    nocors_form: () => fetch("{target}/api/runs", {{method: "POST", mode: "no-cors", credentials: "include",
                          body: new URLSearchParams({{task: "demo"}})}}),
    cors_json: () => fetch("{target}/api/runs", {{method: "POST", credentials: "include",
                          headers: {{"Content-Type": "application/json"}}, body: '{body}'}}),
    nocors_cancel: () => fetch("{target}/api/runs/{victim}/cancel", {{method: "POST", mode: "no-cors",
                          credentials: "include", headers: {{"Content-Type": "text/plain"}}, body: "{{}}"}}),
    bodyless_cancel: () => fetch("{target}/api/runs/{victim}/cancel", {{method: "POST", mode: "no-cors",
                          credentials: "include"}}),
    cors_cancel: () => fetch("{target}/api/runs/{victim}/cancel", {{method: "POST", credentials: "include",
                          headers: {{"Content-Type": "application/json"}}, body: "{{}}"}}),
    beacon: () => Promise.resolve(navigator.sendBeacon("{target}/api/runs/{victim}/cancel", "{{}}")),
  }};
  for (const [name, go] of Object.entries(tries)) {{
    try {{ const r = await go(); window.results[name] = r && r.type === "opaque" ? "opaque" : String(r && r.status); }}
    catch (e) {{ window.results[name] = "blocked"; }}
  }}
  return window.results;
}}
</script></body></html>"""


class AttackerSite:
    """A real web server on another loopback port serving the attacker's page (a local app the user
    also has open): the browser treats it as a local origin, so its requests do reach the dashboard,
    which must refuse them itself."""

    def __init__(self, target: str, victim: str) -> None:
        from starlette.applications import Starlette
        from starlette.responses import HTMLResponse
        from starlette.routing import Route

        async def attack(_: Any) -> HTMLResponse:
            return HTMLResponse(_attacker_page(target, victim))

        self.server = ServerThread(Starlette(routes=[Route("/attack.html", attack)]))  # type: ignore[arg-type]

    def __enter__(self) -> str:
        self.server.__enter__()
        return self.server.base_url

    def __exit__(self, *exc: object) -> None:
        self.server.__exit__(*exc)


@contextmanager
def attacker_origin(page: Any, kind: str, target: str, victim: str) -> Iterator[str]:
    """``route``: a public-looking site (http://evil.test) answered by Playwright; ``local``: a real
    server on another port of 127.0.0.1."""
    if kind == "route":
        origin = "http://evil.test"
        page.context.route(f"{origin}/**", lambda route: route.fulfill(
            status=200, content_type="text/html", body=_attacker_page(target, victim)))
        yield origin
        return
    with AttackerSite(target, victim) as origin:
        yield origin


@pytest.fixture
def recorded(tmp_path: Path) -> Iterator[tuple[ServerThread, Recorder]]:
    settings = make_settings(tmp_path, model=SLOW_MODEL, max_cycles=1)
    recorder = Recorder(create_app(settings))
    with ServerThread(recorder) as srv:  # type: ignore[arg-type]
        yield srv, recorder


@pytest.mark.timeout(180)
@pytest.mark.parametrize("kind", ["route", "local"])
def test_other_origins_cannot_start_or_cancel_runs(recorded: tuple[ServerThread, Recorder], page: Any,
                                                   kind: str) -> None:
    srv, recorder = recorded
    victim = httpx.post(f"{srv.base_url}/api/runs", json={"task": "demo"}, timeout=10).json()["run_id"]
    with attacker_origin(page, kind, srv.base_url, victim) as origin:
        page.goto(f"{origin}/attack.html")
        results = page.evaluate("attack()")
        with page.expect_navigation():
            page.evaluate("document.getElementById('start').submit()")  # a classic CSRF form post
        landed = page.content()
        time.sleep(0.5)

    runs = httpx.get(f"{srv.base_url}/api/runs", timeout=10).json()
    status = httpx.get(f"{srv.base_url}/api/runs/{victim}", timeout=10).json()["status"]
    assert [r["run_id"] for r in runs["data"]] == [victim], (results, runs)  # nothing new started
    assert status in ("queued", "running"), status  # and the victim was not cancelled
    assert results["cors_json"] == "blocked" and results["cors_cancel"] == "blocked", results  # no CORS
    reached = [e for e in recorder.seen if e["method"] == "POST" and e["origin"] == origin]
    assert {e["status"] for e in reached} == {403}, reached  # the server itself refused every one
    assert "cross-" in landed  # the form post landed on the 403 body
    if kind == "local":  # nothing in the browser stood in the way: every no-cors attempt hit the guard
        paths = [e["path"] for e in reached]
        assert paths.count("/api/runs") >= 3 and paths.count(f"/api/runs/{victim}/cancel") >= 3, (results, reached)
        assert all(e["site"] == "same-site" for e in reached), reached
    assert httpx.post(f"{srv.base_url}/api/runs/{victim}/cancel", json={}, timeout=10).status_code == 202


@pytest.mark.timeout(180)
@pytest.mark.parametrize("kind", ["route", "local"])
def test_logged_in_user_is_safe_from_other_origins(tmp_path: Path, page: Any, kind: str) -> None:
    """With a token and a logged-in browser. A cross-site page (http://evil.test): the SameSite=Strict
    cookie is never sent, so even its form post is just a 401. Another port of 127.0.0.1 is the
    SAME site (cookies ignore ports), so the cookie does go along — and the Origin check is what
    refuses it (403)."""
    from playwright.sync_api import expect

    settings = make_settings(tmp_path, model=SLOW_MODEL, max_cycles=1, web_token=TOKEN)
    recorder = Recorder(create_app(settings))
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with ServerThread(recorder) as srv:  # type: ignore[arg-type]
        page.goto(srv.base_url + "/")
        page.get_by_label("Token").fill(TOKEN)
        page.get_by_role("button", name="Log in").click()
        expect(page.locator('article[data-task="demo"]')).to_be_visible()
        victim = httpx.post(f"{srv.base_url}/api/runs", json={"task": "demo"}, headers=auth, timeout=10).json()["run_id"]
        with attacker_origin(page, kind, srv.base_url, victim) as origin:
            page.goto(f"{origin}/attack.html")
            page.evaluate("attack()")
            with page.expect_navigation():
                page.evaluate("document.getElementById('start').submit()")
            time.sleep(0.5)
        foreign = [e for e in recorder.seen if e["origin"] == origin and e["method"] == "POST"]
        ours = [e for e in recorder.seen if e["path"].startswith("/api/") and e["origin"] != origin and e["cookie"]]
        runs = httpx.get(f"{srv.base_url}/api/runs", headers=auth, timeout=10).json()
        status = httpx.get(f"{srv.base_url}/api/runs/{victim}", headers=auth, timeout=10).json()["status"]
        httpx.post(f"{srv.base_url}/api/runs/{victim}/cancel", json={}, headers=auth, timeout=10)
    assert ours, "the dashboard itself used the cookie"
    assert foreign, "the form post at least reaches the server"
    if kind == "route":
        assert not any(e["cookie"] for e in foreign), foreign  # SameSite=Strict: not sent cross-site
        assert {e["status"] for e in foreign} == {401}, foreign
    else:
        assert all(e["cookie"] for e in foreign), foreign  # same site: the cookie is sent...
        assert {e["status"] for e in foreign} == {403}, foreign  # ...and the origin check refuses
    assert runs["count"] == 1 and status in ("queued", "running")
