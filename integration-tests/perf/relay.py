#!/usr/bin/env python3
"""The floor of any policy proxy: a stdio-to-stdio MCP relay that parses and re-serializes each message.

Usage: relay.py <server command...>. Spawns the server and relays newline-delimited JSON-RPC both ways
(its stdin to the server's, the server's stdout to its own), each line parsed with json.loads and written
again with json.dumps, as any proxy that looks at a message (to find the tool name and arguments) must.
It decides nothing: every message goes through. The server's stderr is the relay's.
"""
import json, os, signal, subprocess, sys, threading


def pump(source, sink):
    for line in source:
        if line.strip():
            sink.write(json.dumps(json.loads(line), separators=(",", ":")) + "\n")
            sink.flush()
    sink.close()


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: relay.py <server command...>")
    server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def stop(*_):
        server.kill()
        server.wait()
        os._exit(0)

    # the relay's end (SIGTERM, or its client closing stdin) is the server's: an MCP server need not exit on EOF
    signal.signal(signal.SIGTERM, stop)

    def client_to_server():
        pump(sys.stdin, server.stdin)
        stop()

    threading.Thread(target=client_to_server, daemon=True).start()
    pump(server.stdout, sys.stdout)
    stop()


if __name__ == "__main__":
    main()
