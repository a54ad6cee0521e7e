"""Deterministic facts for the hello task: the name and its number of letters."""

from autogen_pse.hooks import Fact, PrepareContext, Prepared, UserError


def prepare(ctx: PrepareContext) -> Prepared:
    name = ctx.vars.get("name", "").strip()
    if not name:
        raise UserError("--var name= is empty; pass the name to greet, e.g. --var name=Ada")
    text = (ctx.task_dir / "task.md").read_text(encoding="utf-8").replace("{name}", name)
    letters = sum(ch.isalpha() for ch in name)
    return Prepared(task_text=text, facts={
        "name": Fact(id="name", value=name, label="the name to greet"),
        "letters": Fact(id="letters", value=letters, label="letters in the name"),
    })
