/** One target of an issue, the figure measured for it, and whether it was met. */
export interface Verdict {
  target: string;
  figure: string;
  met: boolean;
}

export function printVerdicts(title: string, verdicts: Verdict[]): void {
  console.log(`\n${title}`);
  for (const v of verdicts) {
    console.log(`  ${v.target.padEnd(52)} ${v.figure.padEnd(28)} ${v.met ? 'met' : 'NOT MET'}`);
  }
}
