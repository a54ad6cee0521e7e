"""An autogen-pse model provider: ``--model replay:<file.json>`` replays each role's replies.

Any AutoGen ``ChatCompletionClient`` can stand behind a provider; this one uses AutoGen's own
``ReplayChatCompletionClient`` so the example runs offline. A real provider would build an HTTP
client in ``_make_client`` instead.
"""

import json
from pathlib import Path

from autogen_ext.models.replay import ReplayChatCompletionClient

from autogen_pse import ModelProvider, ProviderPlugin, Settings, UserError


class ReplayProvider(ModelProvider):
    supports_tools = False  # these clients never emit tool calls

    def __init__(self, path: Path) -> None:
        super().__init__()
        try:
            self.replies = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UserError(f"--model replay:{path}: cannot read the replies file ({exc})") from None
        self.name = f"replay:{path.name}"

    def _make_client(self, role: str) -> ReplayChatCompletionClient:
        return ReplayChatCompletionClient(self.replies.get(role, []))


def open_replay(argument: str, settings: Settings) -> ReplayProvider:
    if not argument:
        raise UserError("--model replay:<file.json> needs the replies file")
    return ReplayProvider(Path(argument))


# argument_kind="file": a web client's replay:<file> is taken only from PSE_WEB_SCRIPTED_DIR
PLUGIN = ProviderPlugin(prefix="replay", open=open_replay, remote=False, priced=False,
                        usage="replay:<file.json>", argument_kind="file")
