// n8n's public chat page loads its chat widget (@n8n/chat) and a stylesheet from a CDN, which a
// person's browser reaches and this machine does not: the check serves the widget's own files,
// taken from the @n8n/chat package on the npm registry, in their place.
import fs from 'fs';
import path from 'path';
import type { Page } from '@playwright/test';
import { ROOT } from '../../../scripts/n8n/paths';
import { runForOutput } from '../../../scripts/n8n/proc';

const CHAT_VERSION = '1.37.0';

/** A person's Chromium, as its User-Agent reads when it is not headless. */
export const BROWSER_USER_AGENT =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CDN = 'https://cdn.jsdelivr.net/npm';

/** The widget's dist/ folder, packed from the registry on first use (under node_modules/.cache, which no linter reads). */
async function widgetFiles(): Promise<string> {
	const folder = path.join(ROOT, 'node_modules', '.cache', `n8n-chat-${CHAT_VERSION}`);
	const dist = path.join(folder, 'package', 'dist');
	if (fs.existsSync(path.join(dist, 'chat.bundle.es.js'))) return dist;
	fs.mkdirSync(folder, { recursive: true });
	const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
	const file = (
		await runForOutput('npm', ['pack', `@n8n/chat@${CHAT_VERSION}`, '--pack-destination', folder], {
			env,
		})
	)
		.trim()
		.split('\n')
		.pop()!;
	await runForOutput('tar', ['-xzf', path.join(folder, file), '-C', folder], { env });
	return dist;
}

/** Answers the page's CDN requests for the chat widget from the packed files. */
export async function serveChatWidget(page: Page): Promise<void> {
	const dist = await widgetFiles();
	// Anything else from outside this machine is refused at once rather than left to time out
	// (routes registered later win). n8n names its review links after localhost.
	await page.route(/^https?:\/\/(?!(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
	// The bundle imports its chunks from beside itself.
	await page.route(`${CDN}/@n8n/chat/dist/**`, (route) => {
		const file = path.join(dist, path.basename(new URL(route.request().url()).pathname));
		if (!fs.existsSync(file)) return route.abort();
		const contentType = file.endsWith('.css') ? 'text/css' : 'text/javascript';
		return route.fulfill({ path: file, contentType });
	});
	// A CSS reset only: the widget looks the same without it.
	await page.route(`${CDN}/normalize.css*/**`, (route) =>
		route.fulfill({ body: '', contentType: 'text/css' }),
	);
}
