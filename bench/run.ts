// `npm run bench`: every benchmark of the project, printed as Markdown tables (copied into docs/performance.md).
import { machine, runAccountBench, type Figure } from './accounts.ts';
import { runImageHttpBench } from './images.ts';

const figures: Figure[] = [...(await runAccountBench()), ...(await runImageHttpBench())];

console.log(`\nMachine: ${machine()}\n`);
console.log('| measurement | value | against | ratio | target |');
console.log('|---|---|---|---|---|');
for (const figure of figures) {
  const ratio = figure.reference ? `${((figure.value / figure.reference.value) * 100).toFixed(0)}%` : '';
  console.log(
    `| ${figure.name} | ${figure.value.toFixed(0)} ${figure.unit} | ${figure.reference ? `${figure.reference.name} (${figure.reference.value.toFixed(0)})` : ''} | ${ratio} | ${figure.target ?? ''} |`,
  );
}
