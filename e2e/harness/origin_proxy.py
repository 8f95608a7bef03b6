"""A local HTTPS "internet" for the WebView: an HTTP proxy that answers CONNECT for a few
known hosts by terminating TLS itself (a throwaway certificate the harness pins in WebKit) and
serving files from the repository. Pages therefore get their real origins
(https://sendy.co.kr, https://evil.example) and real subresource loads, without any network.

Any other host or a plain-HTTP proxy request is refused and remembered, so a scenario can
assert that nothing tried to leave the machine.
"""

import http.server
import os
import socketserver
import ssl
import subprocess
import threading


class Site:
    """Files served for one host: URL path -> (file path, content type)."""

    def __init__(self, host, routes):
        self.host = host
        self.routes = routes

    def lookup(self, path):
        path = path.split("?", 1)[0].split("#", 1)[0]
        for prefix, target in self.routes:
            if prefix.endswith("*") and path.startswith(prefix[:-1]):
                return target
            if path == prefix:
                return target
        return None


def make_certificate(directory, hosts):
    """A self-signed certificate with every host as a subjectAltName (openssl CLI)."""
    key = os.path.join(directory, "key.pem")
    cert = os.path.join(directory, "cert.pem")
    san = ",".join("DNS:" + h for h in hosts)
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
         "-days", "2", "-subj", "/CN=" + hosts[0], "-addext", "subjectAltName=" + san],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return cert, key


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "bridgekit-e2e"

    def log_message(self, *args):  # quiet: the harness prints scenario lines only
        pass

    def do_CONNECT(self):
        host, _, port = self.path.partition(":")
        site = self.server.sites.get(host)
        if site is None or port != "443":
            self.server.refused.append("CONNECT " + self.path)
            self.send_response(403)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        try:
            tls = self.server.tls.wrap_socket(self.connection, server_side=True)
        except (ssl.SSLError, OSError) as error:
            self.server.refused.append("TLS %s: %s" % (host, error))
            self.close_connection = True
            return
        # Serve HTTP/1.1 requests on the decrypted stream until the client closes it.
        inner = _TLSHandler.__new__(_TLSHandler)
        inner.site = site
        inner.log = self.server.requests
        inner.refused = self.server.refused
        try:
            http.server.BaseHTTPRequestHandler.__init__(inner, tls, self.client_address, self.server)
        except (ssl.SSLError, ConnectionError, OSError):
            pass
        self.close_connection = True

    def _refuse(self):
        self.server.refused.append(self.command + " " + self.path)
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_HEAD = _refuse


class _TLSHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "bridgekit-e2e"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.log.append("https://" + self.site.host + self.path)
        target = self.site.lookup(self.path)
        if target is None:
            self.refused.append("404 https://" + self.site.host + self.path)
            body, status, ctype = b"not found", 404, "text/plain"
        else:
            file_path, ctype = target
            with open(file_path, "rb") as handle:
                body, status = handle.read(), 200
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class OriginProxy:
    """Start with start(); proxy_uri is what WebKit's proxy settings take."""

    def __init__(self, sites, cert, key):
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.sites = {site.host: site for site in sites}
        self.server.requests = []
        self.server.refused = []
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        context.set_alpn_protocols(["http/1.1"])
        self.server.tls = context
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def proxy_uri(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    @property
    def requests(self):
        return list(self.server.requests)

    @property
    def refused(self):
        return list(self.server.refused)

    def start(self):
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
