// Template values typed as text, one KEY=VALUE a line (the CLI's --var), for the Check page.

export interface ParsedVars {
  vars: Record<string, string>;
  errors: string[];
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** `KEY=VALUE` lines → vars; blank lines and `# comments` are skipped, a bad line is an error. */
export function parseVars(text: string): ParsedVars {
  const vars: Record<string, string> = {};
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const eq = line.indexOf("=");
    const key = eq < 0 ? line : line.slice(0, eq).trim();
    if (eq < 0) errors.push(`line ${i + 1}: expected KEY=VALUE, got “${line}”`);
    else if (!KEY.test(key)) errors.push(`line ${i + 1}: “${key}” is not a variable name (letters, digits, _)`);
    else vars[key] = line.slice(eq + 1).trim();
  });
  return { vars, errors };
}
