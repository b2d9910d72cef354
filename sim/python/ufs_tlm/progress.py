"""A progress bar on stderr: points done, failed, running, and an ETA.

On a terminal the line is redrawn in place a few times a second; otherwise (a log, CI)
a line is printed at every tenth of the work and at least every 30 s.
"""
import sys
import time


def _clock(seconds):
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return "%d:%02d:%02d" % (h, m, s) if h else "%d:%02d" % (m, s)


class Progress:
    def __init__(self, total, cached=0, label="points", stream=None, enabled=True):
        self.total = total
        self.cached = cached
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = enabled and total > cached
        self.tty = self.stream.isatty() if hasattr(self.stream, "isatty") else False
        self.start = time.monotonic()
        self.last_draw = 0.0
        self.last_tenth = -1
        self.width = 0
        self.printed = None
        self.done = cached
        self.failed = 0
        self.running = 0

    def line(self):
        done_here = self.done - self.cached
        left = self.total - self.done
        elapsed = time.monotonic() - self.start
        eta = _clock(elapsed / done_here * left) if done_here else "-"
        filled = int(24 * self.done / self.total) if self.total else 24
        cached = " (%d cached)" % self.cached if self.cached else ""
        return "[%s%s] %d/%d %s done%s, %d failed, %d running, %s elapsed, ETA %s" % (
            "#" * filled, "." * (24 - filled), self.done, self.total, self.label, cached, self.failed, self.running,
            _clock(elapsed), eta)

    def update(self, done, failed, running, force=False):
        self.done, self.failed, self.running = done + self.cached, failed, running
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            if force or now - self.last_draw >= 0.25:
                text = self.line()
                self.stream.write("\r" + text + " " * max(0, self.width - len(text)))
                self.width = len(text)
                self.stream.flush()
                self.last_draw = now
            return
        tenth = int(10 * self.done / self.total) if self.total else 10
        if force or tenth != self.last_tenth or now - self.last_draw >= 30:
            text = self.line()
            if text == self.printed:
                return
            self.printed = text
            self.stream.write(text + "\n")
            self.stream.flush()
            self.last_tenth = tenth
            self.last_draw = now

    def close(self):
        if not self.enabled:
            return
        self.update(self.done - self.cached, self.failed, self.running, force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
