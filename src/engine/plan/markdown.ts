// The plan as a pull-request comment (GitHub-flavoured Markdown): the summary line, warnings, the
// drift section, then one collapsible <details> block per changed resource holding the same diff
// render() prints (no colours). Secrets are already the sensitive marker in every step.
import type { PlanView } from './view.js';
import { outputLines } from './render-outputs.js';
import { stepSymbol } from './step.js';
import { driftLines, renderStepText, stepHeadline, summaryLine } from './render.js';
import { policyMarkdown } from './render-policy.js';

/** Options of `plan.renderMarkdown()`. */
export type MarkdownOptions = {
  /** The heading; default 'converge plan'. */
  readonly title?: string;
  /** Show unchanged resources too. */
  readonly showNoop?: boolean;
};

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function fence(body: string, lang = ''): string[] {
  let ticks = '```';
  while (body.includes(ticks)) ticks += '`';
  return [`${ticks}${lang}`, body, ticks];
}

function block(summary: string, body: string, lang = ''): string[] {
  return ['<details>', `<summary>${summary}</summary>`, '', ...fence(body, lang), '', '</details>', ''];
}

export function renderMarkdown(plan: PlanView, options: MarkdownOptions = {}): string {
  const out: string[] = [`### ${escapeHtml(options.title ?? 'converge plan')}`, ''];
  const refreshOnly = plan.mode === 'refresh-only';
  const drift = plan.drift ?? [];
  if (!plan.hasChanges) out.push('**No changes.** Your infrastructure matches the configuration.', '');
  else if (refreshOnly)
    out.push(
      `**Refresh only: ${drift.length} object${drift.length === 1 ? '' : 's'} changed outside converge.** Applying records them in the state; no object is changed.`,
      '',
    );
  else out.push(`**${summaryLine(plan)}**`, '');
  for (const w of plan.warnings) out.push(`> **Warning:** ${escapeHtml(w)}`, '');
  out.push(...policyMarkdown(plan));
  if (drift.length) {
    out.push('#### Objects changed outside converge', '');
    for (const d of drift) {
      out.push(
        ...block(
          `<code>${d.action === 'delete' ? '-' : '~'}</code> <b>${escapeHtml(d.address)}</b> (${escapeHtml(d.type)}) ${d.action === 'delete' ? 'was deleted' : 'has changed'}`,
          driftLines(d).join('\n'),
          'diff',
        ),
      );
    }
  }
  const shown = refreshOnly ? [] : plan.steps.filter((s) => options.showNoop || s.action !== 'noop' || s.movedFrom);
  if (shown.length) {
    out.push('#### Actions', '');
    for (const s of shown) {
      const head = stepHeadline(s)
        .map((l) => l.replace(/^# /, ''))
        .join(' ');
      out.push(
        ...block(
          `<code>${escapeHtml(stepSymbol(s, 'label'))}</code> <b>${escapeHtml(s.address)}</b>: ${escapeHtml(head.replace(`${s.address} `, ''))}`,
          renderStepText(s),
          'diff',
        ),
      );
    }
  }
  const outputs = refreshOnly ? [] : outputLines(plan.outputChanges, { width: 120, maxLines: 24, sym: (x) => x });
  if (outputs.length) out.push('#### Changes to Outputs', '', ...fence(outputs.join('\n'), 'diff'), '');
  return out.join('\n').trimEnd() + '\n';
}
