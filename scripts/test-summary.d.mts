export interface StepResult {
  name: string;
  ok: boolean;
  seconds: number;
}
export function summarize(stepNames: string[], results: StepResult[]): { lines: string[]; failed: number };
