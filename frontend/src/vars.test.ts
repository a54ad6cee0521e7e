import { describe, expect, it } from "vitest";
import { parseVars } from "./vars";

describe("parseVars", () => {
  it("reads KEY=VALUE lines, skipping blanks and comments", () => {
    expect(parseVars("holdings = data/h.csv\n\n# note\r\nprices=p.csv\nempty=\nurl=a=b")).toEqual({
      vars: { holdings: "data/h.csv", prices: "p.csv", empty: "", url: "a=b" },
      errors: [],
    });
    expect(parseVars("")).toEqual({ vars: {}, errors: [] });
  });

  it("reports lines without = and bad names", () => {
    const { vars, errors } = parseVars("ok=1\nnonsense\n1bad=x\n=x");
    expect(vars).toEqual({ ok: "1" });
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^line 2: expected KEY=VALUE/);
    expect(errors[1]).toMatch(/^line 3: “1bad”/);
  });
});
