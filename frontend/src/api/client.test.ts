import { describe, expect, it } from "vitest";
import { ApiError, varErrors } from "./client";

describe("varErrors", () => {
  it("maps a 422 detail list to messages per var", () => {
    const err = new ApiError(422, "x", [
      { loc: ["body", "vars", "holdings"], msg: "absolute paths are not accepted" },
      { loc: ["body", "vars", "holdings"], msg: "and missing" },
      { loc: ["body", "vars"], msg: "the prepare step failed" },
      { loc: ["body", "task"], msg: "not about vars" },
    ]);
    expect(varErrors(err)).toEqual({ holdings: "absolute paths are not accepted; and missing", "": "the prepare step failed" });
  });
  it("reads the key from pydantic's own vars check", () => {
    const err = new ApiError(422, "x", [{ loc: ["body", "vars"], msg: "Value error, vars.prices: absolute paths, ~ and .. are not accepted" }]);
    expect(varErrors(err)).toEqual({ prices: "absolute paths, ~ and .. are not accepted" });
  });
  it("is empty for other errors", () => {
    expect(varErrors(new ApiError(422, "model not allowed", "model not allowed"))).toEqual({});
    expect(varErrors(new Error("boom"))).toEqual({});
  });
});
