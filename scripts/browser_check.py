#!/usr/bin/env python3
"""Drives the board page (build/bin/board) in headless Chromium over the DevTools protocol.

Started by scripts/browser_check.sh, which starts the server. Real mouse clicks (Input.dispatchMouseEvent
at an element's place on the screen) and typing (Input.insertText): it plays one game against
the bot from the empty board to its end, checks that a move on a taken cell is refused with its
reason, sets up a position from a move list, asks the bot to think, watches two bots for a few
moves, steps through an arena record, and writes screenshots. Python standard library only: the
WebSocket client is the few lines below.
"""
import argparse
import base64
import json
import os
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request


class DevTools:
    """One WebSocket to a page target; call() sends a command and waits for its answer."""

    def __init__(self, url):
        rest = url[len("ws://"):]
        hostport, path = rest.split("/", 1)
        host, port = hostport.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise RuntimeError("DevTools closed the WebSocket handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("DevTools refused the WebSocket: " + head.decode(errors="replace"))
        self.next_id = 0

    def _exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            data += chunk
        return data

    def _send(self, text):
        payload = text.encode()
        head = bytes([0x81])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _receive(self):
        message = b""
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._exact(8))[0]
            payload = self._exact(n)
            if b0 & 0x0F in (0x9, 0xA):  # ping / pong: not part of a message
                continue
            message += payload
            if b0 & 0x80:
                return json.loads(message.decode())

    def call(self, method, **params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = self._receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def js(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression, seconds=60, what=None):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.js(expression):
                return
            time.sleep(0.05)
        raise RuntimeError(f"timed out waiting for {what or expression}")

    def click(self, selector):
        """A real mouse click at the middle of the element on the screen."""
        box = self.js(f"(()=>{{const e=document.querySelector({json.dumps(selector)});if(!e)return null;"
                      "e.scrollIntoView({block:'center'});const r=e.getBoundingClientRect();"
                      "return [r.left+r.width/2,r.top+r.height/2];})()")
        if box is None:
            raise RuntimeError(f"no element {selector} on the page")
        x, y = box
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def type_into(self, selector, text):
        self.click(selector)
        self.js(f"document.querySelector({json.dumps(selector)}).select()")
        self.call("Input.insertText", text=text)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        print(f"browser_check: wrote {path}")


def start_chromium(browser, profile):
    process = subprocess.Popen(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
         "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=1200,960", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.time() + 60
    while time.time() < deadline:
        if os.path.exists(port_file):
            lines = open(port_file).read().split()
            if len(lines) >= 2:
                targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{lines[0]}/json/list"))
                pages = [t for t in targets if t.get("type") == "page"]
                if pages:
                    return process, pages[0]["webSocketDebuggerUrl"]
        if process.poll() is not None:
            raise RuntimeError(f"{browser} exited with status {process.returncode}")
        time.sleep(0.1)
    raise RuntimeError(f"{browser} did not open its DevTools port")


def state(tab):
    return tab.js("state")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="the board page, http://127.0.0.1:PORT/")
    parser.add_argument("--browser", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--out", default="docs/img", help="folder for the screenshots")
    parser.add_argument("--record", help="an arena --record file to step through")
    parser.add_argument("--failing-url", help="a board page whose bot fails at once")
    parser.add_argument("--seed", type=int, default=86)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    profile = tempfile.mkdtemp(prefix="board-chromium-")
    browser = None
    try:
        browser, ws = start_chromium(args.browser, profile)
        tab = DevTools(ws)
        tab.call("Page.enable")
        tab.call("Page.navigate", url=args.url)
        tab.wait("document.readyState==='complete' && typeof state!=='undefined' && state!==null", what="the page")
        tab.wait("!!(analysis && analysis.book && analysis.book.book)", seconds=180, what="the book to load on the server")

        # One game against the bot, from the empty board to its end: the person's side clicks a
        # random empty cell (the steal is left out: the bot moves second).
        tab.click("#new1")
        tab.wait("state && state.moves===''", what="a new game")
        clicks = []
        refused = False
        while not state(tab)["over"]:
            s = state(tab)
            taken = {(st["x"], st["y"]) for st in s["stones"]}
            if s["stones"] and not refused:  # a taken cell first: refused with its reason, nothing played
                x, y = s["stones"][0]["x"], s["stones"][0]["y"]
                tab.click(f"#c{x}_{y}")
                # (!busy: the page ignores a click until it has redrawn after the refusal)
                tab.wait("document.getElementById('error').textContent.includes('taken') && !busy", what="the refusal")
                assert state(tab)["moves"] == s["moves"], "a refused move changed the game"
                refused = True
            rows = [5, 6, 7, 8, 9, 8, 7, 6, 5]
            free = [(x, y) for y in range(9) for x in range(rows[y]) if (x, y) not in taken]
            x, y = rng.choice(free)
            before = len(s["plies"])
            tab.click(f"#c{x}_{y}")
            tab.wait(f"state && (state.plies.length>{before + 1} || state.over || state.problem!=='') && !busy",
                     what="the bot's answer")
            if state(tab)["problem"]:
                raise RuntimeError("the bot failed: " + state(tab)["problem"])
            ms = tab.js("window.lastClickMs")
            clicks.append(ms)
        final = state(tab)
        print(f"browser_check: game over after {len(final['plies'])} plies: {final['result']}")
        print(f"browser_check: moves {final['moves']}")
        print("browser_check: click to the bot's answer (ms, in the page): " + ", ".join(str(c) for c in clicks))
        shown = tab.js("document.getElementById('result').textContent")
        assert final["result"] and shown == final["result"], f"the page shows '{shown}'"
        # The header names the person's colour and the winner; the edges carry the coordinates.
        header = tab.js("document.getElementById('status').textContent")
        winner = f"player {final['winner']} ({['black', 'white'][final['winner'] - 1]}" if final["winner"] else "a draw"
        assert header.startswith("You play black (player 1). Game over: ") and winner in header, f"the header: '{header}'"
        edges = tab.js("[...document.querySelectorAll('#board text.edge')].map(t=>t.textContent).join(' ')")
        assert edges.split() == [str(y) for y in range(9) for _ in (0, 1)] + [str(x) for x in range(5) for _ in (0, 1)], \
            f"the edges' coordinates: {edges}"
        print(f"browser_check: header '{header}'")
        tab.screenshot(os.path.join(args.out, "board-game-over.png"))

        # A new game as player 2: the bot opens, the heat map values every answer (the steal
        # among them) and marks the book's move; the bot thinks about the position.
        tab.click("#new2")
        tab.wait("state && state.plies.length===1 && !busy && analysis && analysis.moves===state.moves",
                 what="the bot's opening and the analysis")
        book = tab.js("analysis.book")
        print(f"browser_check: the bot opened {state(tab)['moves']}: {len(book['moves'])} answers valued by the book, "
              f"shipped answer {book.get('shipped')}, analysis {tab.js('analysis.book_ms')} ms on the server")
        # A think of 0 ms is refused with its reason (not "the game is over"); the next think
        # that succeeds clears the refusal.
        tab.type_into("#thinkms", "0")
        tab.click("#thinkbtn")
        tab.wait("document.getElementById('aerror').textContent.includes('think must be')", what="the refused think")
        shown = tab.js("document.getElementById('thinkout').textContent")
        assert "game is over" not in shown, f"a refused think shows '{shown}'"
        tab.type_into("#thinkms", "500")
        tab.click("#thinkbtn")
        tab.wait("thinkResult!==null", seconds=30, what="the bot's thinking")
        think = tab.js("document.getElementById('thinkout').textContent")
        print("browser_check: " + think.split("\n")[0])
        left = tab.js("document.getElementById('aerror').textContent")
        assert left == "", f"the refused think's error stays after the think that succeeded: '{left}'"
        # The ranks #1..#8: each centred in its cell, and drawn after (above) every ring.
        ranks = tab.js("""(()=>{const out=[];const rings=[...document.querySelectorAll(
            '#board .shipped,#board .repack,#board .last,#board .line')];
          for(const t of document.querySelectorAll('#board text.rank')){
            const key=t.getAttribute('data-cell')||t.parentNode.getAttribute('data-cell');
            const c=document.getElementById('c'+key.replace(',','_')).getBBox(),b=t.getBBox();
            out.push({rank:t.textContent,dx:Math.abs(b.x+b.width/2-(c.x+c.width/2)),
              inside:b.x>=c.x&&b.x+b.width<=c.x+c.width&&b.y>=c.y&&b.y+b.height<=c.y+c.height,
              below:rings.filter(r=>!(r.compareDocumentPosition(t)&Node.DOCUMENT_POSITION_FOLLOWING)).length});}
          return out;})()""")
        assert len(ranks) == len(tab.js("thinkResult.top")) and ranks, f"ranks drawn: {ranks}"
        for r in ranks:
            assert r["dx"] < 1 and r["inside"] and r["below"] == 0, f"a rank label off its cell's centre or under a ring: {r}"
        tab.screenshot(os.path.join(args.out, "board.png"))

        # A position from a move list: the bot (player 1) answers it.
        tab.type_into("#movelist", "3 2; 3 3")
        tab.click("#setup")
        tab.wait("state && state.moves.startsWith('3 2; 3 3; ') && !busy", what="the bot's answer to the set-up position")
        print(f"browser_check: set up 3 2; 3 3, the bot answered: {state(tab)['moves']}")

        # Two bots, a few moves.
        tab.click("#tab-watch")
        tab.click("#wstart")
        tab.wait("state && state.mode==='watch' && state.moves===''", what="a watched game")
        for _ in range(4):
            before = len(state(tab)["plies"])
            tab.click("#wstep")
            tab.wait(f"state.plies.length>{before} || state.over || state.problem!==''", what="a watched move")
        print(f"browser_check: watched {state(tab)['moves']}")

        if args.record:
            tab.click("#tab-replay")
            doc = tab.call("DOM.getDocument")
            node = tab.call("DOM.querySelector", nodeId=doc["root"]["nodeId"], selector="#recfile")
            tab.call("DOM.setFileInputFiles", files=[os.path.abspath(args.record)], nodeId=node["nodeId"])
            tab.wait("replay.games.length>0", what="the record")
            for _ in range(6):
                tab.click("#rnext")
            tab.wait("replay.ply===6 && analysis!==null", what="ply 6 of the record")
            print("browser_check: replay " + tab.js("document.getElementById('rinfo').textContent"))
            tab.screenshot(os.path.join(args.out, "board-replay.png"))
            # A file that is no record: its error, and the previous record no longer shown.
            bad = os.path.join(profile, "not-a-record.jsonl")
            with open(bad, "w") as f:
                f.write("not a record\n")
            tab.call("DOM.setFileInputFiles", files=[bad], nodeId=node["nodeId"])
            tab.wait("document.getElementById('error').textContent.includes('no set-up header')", what="the refusal")
            left = tab.js("""({games:replay.games.length,options:document.getElementById('recgame').options.length,
                rinfo:document.getElementById('rinfo').textContent,
                stones:document.querySelectorAll('#board .stone1,#board .stone2').length})""")
            assert left == {"games": 0, "options": 0, "rinfo": "", "stones": 0}, \
                f"a refused record file leaves the previous record shown: {left}"
            print("browser_check: a file that is no record is refused, the previous record cleared")

        if args.failing_url:  # a bot that fails: its problem shown once
            tab.call("Page.navigate", url=args.failing_url)
            tab.wait("document.readyState==='complete' && typeof state!=='undefined' && state!==null",
                     what="the page of the failing bot")
            tab.click("#new2")
            tab.wait("state && state.problem!=='' && !busy", what="the bot's failure")
            times = tab.js("document.getElementById('messages').innerText.split(state.problem).length-1")
            assert times == 1, f"the bot's failure is shown {times} times"
            print("browser_check: a failing bot: " + state(tab)["problem"][:80] + "...: shown once")
        print("browser_check: ok")
    finally:
        if browser:
            browser.terminate()
            try:
                browser.wait(10)
            except subprocess.TimeoutExpired:
                browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, AssertionError) as e:
        print(f"browser_check: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
