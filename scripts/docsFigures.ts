// `npm run docs:figures`: renders the figures of docs/benchmarks.md and docs/scaling.md from the
// stored results in docs/results/ (scripts/bench/render.ts). The benchmarks do it themselves
// after storing a result; run this after editing a stored result's notes or the renderer.
import path from 'path';

import { renderDocs } from './bench/render';
import { ROOT } from './n8n/paths';

const changed = renderDocs();
process.stdout.write(
	changed.length
		? `rendered: ${changed.map((doc) => path.relative(process.cwd(), path.join(ROOT, doc))).join(', ')}\n`
		: 'the docs already show the stored results\n',
);
