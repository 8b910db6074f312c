#!/usr/bin/env python3
"""A stand-in for openlibrary.org and covers.openlibrary.org on 127.0.0.1, for bookclub's tests.

Serves answers shaped as Open Library's (from recorded ones): Dune's edition behind the redirect
that /isbn/ gives, its work and author, and its cover; a 404, a slow answer, a 403, an answer too
big, JSON of the wrong shape and an image that is not one. Any other valid ISBN gets a made-up
edition with a cover, for runs over many books. Each request is logged to LOG as one JSON line:
the path, the User-Agent and the time. Writes the port it listens on to PORT_FILE, then serves
until killed.

Usage: server.py LOG PORT_FILE
"""
import http.server, json, os, signal, sys, time

LOG = sys.argv[1]
# Stopped by SIGTERM even when started with it blocked or ignored.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
signal.signal(signal.SIGTERM, signal.SIG_DFL)
DUNE = "9780441013593"
JPEG = bytes([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + b"JFIF\x00" + b"\x00" * 100 + bytes([0xFF, 0xD9])
THUMBNAIL = bytes([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + b"JFIF\x00" + b"\x01" * 20 + bytes([0xFF, 0xD9])

EDITION = {
    "publishers": ["Ace Books"], "number_of_pages": 617, "isbn_10": ["0441013597"], "covers": [11481354, -1],
    "key": "/books/OL26242482M", "authors": [{"key": "/authors/OL79034A"}], "ocaid": "dune00herb",
    "publish_date": "2005", "title": "Dune", "identifiers": {"goodreads": ["234225"]},
    "isbn_13": [DUNE], "works": [{"key": "/works/OL893415W"}], "type": {"key": "/type/edition"},
    "physical_format": "Paperback", "latest_revision": 11, "revision": 11,
    "created": {"type": "/type/datetime", "value": "2017-03-02T20:28:22.476620"},
    "last_modified": {"type": "/type/datetime", "value": "2023-12-02T01:22:33.171547"},
}
WORK = {
    "title": "Dune", "key": "/works/OL893415W", "covers": [11481354],
    "authors": [{"author": {"key": "/authors/OL79034A"}, "type": {"key": "/type/author_role"}}],
    "type": {"key": "/type/work"}, "subjects": ["Science fiction"],
}
AUTHOR = {"name": "Frank Herbert", "key": "/authors/OL79034A", "birth_date": "8 October 1920",
          "type": {"key": "/type/author"}}


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body=b"", kind="application/json", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with open(LOG, "a") as log:
            log.write(json.dumps({"path": self.path, "agent": self.headers.get("User-Agent", ""),
                                  "time": time.time()}) + "\n")
        path = self.path
        if path.startswith("/isbn/") and path.endswith(".json"):
            isbn = path[len("/isbn/"):-len(".json")]
            if isbn == DUNE:
                return self.send(302, headers=[("Location", "/books/OL26242482M.json")])
            if isbn == "9780000000002":
                return self.send(404, b'{"error": "notfound", "key": "/isbn/9780000000002"}')
            if isbn == "9781111111113":
                time.sleep(5)
            if isbn == "9782222222224":
                return self.send(403, b"Forbidden", "text/plain")
            if isbn == "9783333333335":
                return self.send(200, b'{"title": ' + b'"x' * 2_000_000 + b'"}')
            if isbn == "9784444444446":
                return self.send(200, b'{"title": ["not", "a", "string"], "authors": "nobody"}')
            if isbn == "9785555555557":
                return self.send(200, json.dumps({"title": "Escape \u001b]0;owned\u0007", "covers": [666]}).encode())
            if isbn == "9786666666668":
                return self.send(200, json.dumps({"title": "Bad key", "authors": [{"key": "/authors/../../etc"}]}).encode())
            return self.send(200, json.dumps({"title": "Book " + isbn, "covers": [int(isbn[-7:])],
                                              "number_of_pages": 200}).encode())
        if path == "/books/OL26242482M.json":
            return self.send(200, json.dumps(EDITION).encode())
        if path == "/works/OL893415W.json":
            return self.send(200, json.dumps(WORK).encode())
        if path == "/authors/OL79034A.json":
            return self.send(200, json.dumps(AUTHOR).encode())
        if path == "/b/id/666-L.jpg":
            return self.send(200, b"<html>not an image</html>", "text/html")
        if path.startswith("/b/id/") and path.endswith("-L.jpg"):
            return self.send(200, JPEG, "image/jpeg")
        if path.startswith("/b/id/") and path.endswith("-M.jpg"):
            return self.send(200, THUMBNAIL, "image/jpeg")
        self.send(404, b'{"error": "notfound"}')


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a client that hangs up on an answer too big


server = Server(("127.0.0.1", 0), Handler)
with open(sys.argv[2] + ".new", "w") as out:
    out.write(str(server.server_address[1]))
os.rename(sys.argv[2] + ".new", sys.argv[2])
server.serve_forever()
