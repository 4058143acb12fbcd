"""Progress bars for Simulation.step and Simulation.run: tqdm where it is installed (in Jupyter a
widget where ipywidgets is installed, else tqdm's text bar, never tqdm.auto's "IProgress not found"
warning), else one line of text rewritten in place, in a terminal or a notebook. A bar never goes
backwards."""

import sys
import time


class TextBar:
    """`[#####-----]  45 %  <text>` on stderr, rewritten at most every half second."""

    width = 30

    def __init__(self, title, stream=None):
        self.title = title
        self.stream = stream if stream is not None else sys.stderr
        self.last = 0.0

    def update(self, fraction, text, force=False):
        now = time.monotonic()
        if not force and now - self.last < 0.5:
            return
        self.last = now
        done = int(round(max(0.0, min(1.0, fraction)) * self.width))
        self.stream.write(f"\r{self.title} [{'#' * done}{'-' * (self.width - done)}] {100 * fraction:5.1f} %  {text}   ")
        self.stream.flush()

    def close(self):
        self.stream.write("\n")
        self.stream.flush()


class TqdmBar:
    """The same on a tqdm bar counting permille (the status in its description: tqdm puts ", "
    before a postfix)."""

    def __init__(self, title, tqdm):
        self.title = title
        self.bar = tqdm(total=1000, desc=title, unit="‰", bar_format="{desc} {bar} {percentage:5.1f} %")

    def update(self, fraction, text, force=False):
        self.bar.n = int(round(max(0.0, min(1.0, fraction)) * 1000))
        self.bar.set_description_str(f"{self.title}  {text}", refresh=False)
        self.bar.refresh()

    def close(self):
        self.bar.close()


def _has_widgets():
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        return False
    return True


def make_bar(title, kind):
    """`kind`: True (tqdm where installed, else text), "text", "tqdm", or False (None: no bar)."""
    if kind is False or kind is None:
        return None
    if kind in (True, "tqdm"):
        try:
            if "ipykernel" in sys.modules and not _has_widgets():
                from tqdm.std import tqdm  # tqdm.auto would warn and fall back to this
            else:
                from tqdm.auto import tqdm
        except ImportError:
            if kind == "tqdm":
                raise
        else:
            return TqdmBar(title, tqdm)
    if kind in (True, "text"):
        return TextBar(title)
    raise ValueError(f"progress={kind!r}: allowed: True, False, 'text' or 'tqdm'")
