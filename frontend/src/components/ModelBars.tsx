// One horizontal bar per model (pass rate, cost, latency …) as a plain SVG chart with a hidden table.
export interface ModelBar {
  model: string;
  value: number | null | undefined;
}

export function ModelBars({ title, bars, max, format }: { title: string; bars: ModelBar[]; max?: number; format: (v: number) => string }) {
  const width = 420;
  const labelW = 150;
  const barH = 18;
  const gap = 10;
  const height = bars.length * (barH + gap) + 8;
  const top = max ?? Math.max(0, ...bars.map((b) => b.value ?? 0));
  const id = `chart-${title.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`;
  return (
    <figure className="model-bars">
      <figcaption id={id}>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={id} preserveAspectRatio="xMinYMin meet">
        {bars.map((b, i) => {
          const y = i * (barH + gap) + 4;
          const w = b.value == null || top <= 0 ? 0 : Math.max(1, ((width - labelW - 80) * Math.min(b.value, top)) / top);
          const label = b.model.length > 22 ? `${b.model.slice(0, 21)}…` : b.model;
          return (
            <g key={b.model} className={`series-${i % 6}`}>
              <text x={0} y={y + barH * 0.75} className="chart-label-plain">
                <title>{b.model}</title>
                {label}
              </text>
              {b.value != null && <rect x={labelW} y={y} width={w} height={barH} rx={2} className="model-bar" />}
              <text x={labelW + w + 6} y={y + barH * 0.75} className="chart-value">
                {b.value == null ? "no data" : format(b.value)}
              </text>
            </g>
          );
        })}
      </svg>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {bars.map((b) => (
            <tr key={b.model}>
              <th scope="row">{b.model}</th>
              <td>{b.value == null ? "no data" : format(b.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
