// The plan's graph as a Mermaid flowchart: one node per step, styled by its action, an edge from
// each step to the steps that wait for it. A reviewer sees the shape of a change at a glance.
import type { PlanView } from './view.js';
import type { Action } from '../action.js';
import { stepSymbol } from './step.js';

const STYLES: Readonly<Record<Action, string>> = {
  create: 'fill:#e6ffed,stroke:#22863a,color:#22863a',
  update: 'fill:#fff5b1,stroke:#b08800,color:#735c0f',
  replace: 'fill:#f5e6ff,stroke:#6f42c1,color:#6f42c1',
  delete: 'fill:#ffeef0,stroke:#cb2431,color:#cb2431',
  forget: 'fill:#f1f8ff,stroke:#0366d6,color:#0366d6',
  noop: 'fill:#fafbfc,stroke:#959da5,color:#586069',
};

function label(text: string): string {
  return text.replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
}

export function planToMermaid(plan: PlanView): string {
  const lines = ['flowchart TD'];
  const ids = new Map<string, string>();
  plan.steps.forEach((s, i) => {
    const key = s.deposedKey ? `${s.address}#${s.deposedKey}` : s.address;
    ids.set(key, `s${i}`);
    if (!ids.has(s.address)) ids.set(s.address, `s${i}`);
  });
  plan.steps.forEach((s, i) => {
    const sym = stepSymbol(s, 'label');
    const who = s.deposedKey ? `${s.address} (deposed ${s.deposedKey})` : s.address;
    lines.push(`  s${i}["${label(`${sym} ${who}`)}<br/><small>${label(s.type)}</small>"]:::${s.action}`);
  });
  plan.steps.forEach((s, i) => {
    for (const d of s.dependsOn) {
      const from = ids.get(d);
      if (from && from !== `s${i}`) lines.push(`  ${from} --> s${i}`);
    }
  });
  for (const [action, style] of Object.entries(STYLES)) lines.push(`  classDef ${action} ${style}`);
  return lines.join('\n');
}
