/**
 * What performance_analyze_insight answers from a trace's report (the texts
 * the trace analysis process computed), and the reference's answers when an
 * insight set or an insight does not exist (analysis.ts gives the same ones).
 */
import type {TraceReport} from './hostProtocol.js';

export const NO_INSIGHTS = 'No Performance insights are available for this trace.';
export const NO_INSIGHT_SET =
  'No Performance Insights for the given insight set id. Only use ids given in the "Available insight sets" list.';

export function noInsight(insightName: string): string {
  return `No Insight with the name ${insightName} found. Double check the name you provided is accurate and try again.`;
}

/** One insight in full for the page's device scope, or the reference's answer when it does not exist. */
export function insightText(
  report: TraceReport,
  insightSetId: string,
  insightName: string,
  deviceScope: 'DESKTOP' | 'PHONE',
): string {
  if (!report.insights) {
    return NO_INSIGHTS;
  }
  const insightSet = report.insights.get(insightSetId);
  if (!insightSet) {
    return NO_INSIGHT_SET;
  }
  const texts = insightSet.get(insightName);
  if (!texts) {
    return noInsight(insightName);
  }
  return deviceScope === 'PHONE' ? (texts.PHONE ?? texts.DESKTOP) : texts.DESKTOP;
}
