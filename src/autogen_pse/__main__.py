"""``python -m autogen_pse …``: the ``pse`` command line."""

from autogen_pse.cli import entry

if __name__ == "__main__":
    entry()
