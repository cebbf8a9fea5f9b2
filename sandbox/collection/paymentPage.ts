/**
 * The hosted payment page behind web_payment_url: the sandbox stand-in for the customer's
 * checkout. Pay / Cancel settle the transaction (with its callback) and send the browser to
 * success_redirect_url / failure_redirect_url, as docs/endpoints.md (Answers) describes.
 */
import type { Reply } from '../server/http';
import { route, type RequestContext, type Route } from '../server/router';
import { COLLECTION_CHANNELS } from './channels';
import type { CollectionRecord } from './transactions';

const escapeHtml = (value: unknown) =>
	String(value).replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
	);

function layout(title: string, inner: string, status = 200): Reply {
	return {
		status,
		html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;padding:2rem;color:#1f2933}
main{max-width:26rem;margin:auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 2px 12px #0001}
.badge{display:inline-block;background:#fde68a;border-radius:6px;padding:.1rem .5rem;font-size:.75rem;font-weight:600}
.amount{font-size:2rem;font-weight:700;margin:.5rem 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{color:#52606d}dd{margin:0}
form{display:inline}button{font-size:1rem;padding:.6rem 1.4rem;border-radius:8px;border:0;cursor:pointer;margin-right:.5rem}
.pay{background:#16a34a;color:#fff}.cancel{background:#e5e7eb}
.completed{color:#16a34a}.cancelled{color:#dc2626}.pending{color:#b45309}
</style></head><body><main><span class="badge">SANDBOX</span>${inner}</main></body></html>`,
	};
}

function summary(record: CollectionRecord): string {
	const v = record.view;
	return `<div class="amount">₱${escapeHtml(v.total_amount.toFixed(2))}</div>
<dl><dt>Channel</dt><dd>${escapeHtml(record.channel.name)}</dd>
<dt>Reference</dt><dd id="reference">${escapeHtml(v.reference_no)}</dd>
<dt>Amount</dt><dd>₱${escapeHtml(v.subtotal_amount.toFixed(2))}</dd>
<dt>Service fee</dt><dd>₱${escapeHtml(Number(v.service_fee).toFixed(2))}</dd>
<dt>Status</dt><dd id="status" class="${escapeHtml(v.status)}">${escapeHtml(v.status)}</dd></dl>`;
}

function notFound(): Reply {
	return layout(
		'Payment not found',
		'<h1>Payment not found</h1><p>No transaction has this reference number.</p>',
		404,
	);
}

function showPage(ctx: RequestContext): Reply {
	const record = ctx.state.transactions.get(ctx.params.reference_no);
	if (!record) return notFound();
	const action = `/pay/${encodeURIComponent(record.view.reference_no)}`;
	const buttons =
		record.view.status === 'pending'
			? `<p><form method="post" action="${escapeHtml(action)}/complete"><button class="pay" id="pay">Pay</button></form>` +
				`<form method="post" action="${escapeHtml(action)}/cancel"><button class="cancel" id="cancel">Cancel</button></form></p>`
			: '<p>This payment is no longer open.</p>';
	return layout(
		`Pay ${record.view.reference_no}`,
		`<h1>Complete your payment</h1>${summary(record)}${buttons}`,
	);
}

function decide(status: 'completed' | 'cancelled') {
	return (ctx: RequestContext): Reply => {
		const record = ctx.state.transactions.get(ctx.params.reference_no);
		if (!record) return notFound();
		const changed = ctx.state.outcomes.finalize(record, status);
		// The callback goes out in the background; the browser does not wait for the merchant.
		changed?.catch(() => undefined);
		const target = record.view.status === 'completed' ? record.successUrl : record.failureUrl;
		if (changed && target) return { status: 303, html: '', headers: { location: target } };
		const heading =
			record.view.status === 'completed'
				? 'Payment received'
				: record.view.status === 'cancelled'
					? 'Payment cancelled'
					: 'Payment pending';
		return layout(heading, `<h1>${escapeHtml(heading)}</h1>${summary(record)}`);
	};
}

/** A tiny generated badge per channel, so the `logo` URLs in responses resolve. */
function logo(ctx: RequestContext): Reply {
	const slug = ctx.params.file.replace(/\.svg$/, '');
	const channel = COLLECTION_CHANNELS.find((c) => c.slug === slug);
	if (!channel) return { status: 404, body: { message: 'Not found.' } };
	const initials = channel.name
		.replace(/[^A-Za-z ]/g, '')
		.split(/\s+/)
		.map((w) => w[0])
		.join('')
		.slice(0, 3)
		.toUpperCase();
	return {
		status: 200,
		text: `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="48" viewBox="0 0 96 48"><rect width="96" height="48" rx="8" fill="#1e3a8a"/><text x="48" y="31" font-family="sans-serif" font-size="18" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`,
		headers: { 'content-type': 'image/svg+xml' },
	};
}

export const pageRoutes: Route[] = [
	route('GET', '/pay/:reference_no', {}, showPage),
	route('POST', '/pay/:reference_no/complete', {}, decide('completed')),
	route('POST', '/pay/:reference_no/cancel', {}, decide('cancelled')),
	route('GET', '/static/logos/:file', {}, logo),
];
