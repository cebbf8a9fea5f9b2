/**
 * HTTP control surface under /__sandbox/ for out-of-process use (demo, end-to-end tests,
 * benchmarks). Unauthenticated: the gateway only listens on 127.0.0.1. Control requests are not
 * counted in stats and never hit by faults or latency.
 */
import { PAYOUT_ANSWERS } from '../types';
import type { FaultRule, FinalStatus, PayoutAnswers, SandboxGateway, Status } from '../types';
import { fail, json, ok, type ParsedBody, type Reply } from './http';
import { SandboxError } from './outcomes';

export const CONTROL_PREFIX = '/__sandbox/';

export async function handleControl(
	gateway: SandboxGateway,
	method: string,
	path: string,
	parsed: ParsedBody,
): Promise<Reply> {
	if (parsed.kind === 'bad') return fail(400, parsed.message);
	const body = parsed.kind === 'ok' ? parsed.value : {};
	const action = `${method} ${path.slice(CONTROL_PREFIX.length).replace(/\/$/, '')}`;
	try {
		switch (action) {
			case 'GET stats':
				return ok('', gateway.stats());
			case 'POST reset-stats':
				gateway.resetStats();
				return ok('Stats reset.', gateway.stats());
			case 'POST reset':
				gateway.reset();
				return ok('Sandbox reset.', {});
			case 'POST faults':
				gateway.faults.add(body as unknown as FaultRule);
				return ok('Fault added.', body);
			case 'DELETE faults':
				gateway.faults.clear();
				return ok('Faults cleared.', {});
			case 'POST latency': {
				const ms = body.ms;
				if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
					return json(422, {
						message: 'The ms field must be a number of milliseconds.',
						errors: { ms: ['The ms field must be a number of milliseconds.'] },
					});
				}
				gateway.setLatency(ms);
				return ok('Latency set.', { ms });
			}
			case 'POST expire-tokens':
				gateway.expireTokens();
				return ok('All tokens expired.', {});
			case 'POST settle':
				await gateway.settle(String(body.reference_no ?? ''), body.status as FinalStatus);
				return ok('Settled.', { reference_no: body.reference_no, status: body.status });
			case 'POST script':
				gateway.scriptOutcome(
					String(body.reference_no ?? ''),
					body.status as FinalStatus,
					Number(body.after_ms ?? 0),
				);
				return ok('Outcome scripted.', {
					reference_no: body.reference_no,
					status: body.status,
					after_ms: Number(body.after_ms ?? 0),
				});
			case 'POST duplicate': {
				const status = String(body.status ?? '');
				if (!['pending', 'completed', 'cancelled'].includes(status))
					return fail(422, 'The status must be pending, completed or cancelled.');
				if (!gateway.duplicateRecord(String(body.reference_no ?? ''), status as Status))
					return fail(404, 'No record has this reference_no.');
				return ok('Look-ups now show two records.', { reference_no: body.reference_no, status });
			}
			case 'POST backdate': {
				const createdAt = Date.parse(String(body.created_at ?? ''));
				if (!Number.isFinite(createdAt))
					return fail(422, 'The created_at field must be an ISO 8601 time.');
				if (!gateway.backdate(String(body.reference_no ?? ''), createdAt))
					return fail(404, 'No record has this reference_no.');
				return ok('Backdated.', { reference_no: body.reference_no, created_at: body.created_at });
			}
			case 'POST reused-references':
				if (body.answer !== 'taken' && body.answer !== 'existing')
					return fail(422, 'The answer field must be "taken" or "existing".');
				gateway.answerReusedReferences(body.answer);
				return ok('Reused references answered so.', { answer: body.answer });
			case 'POST payout-answers':
				if (!PAYOUT_ANSWERS.includes(body.answers as PayoutAnswers))
					return fail(422, `The answers field must be one of ${PAYOUT_ANSWERS.join(', ')}.`);
				gateway.answerPayouts(body.answers as PayoutAnswers);
				return ok('Payout answers set.', { answers: body.answers });
			case 'GET callbacks':
				return ok('', { callbacks: gateway.callbacks() });
			default:
				return fail(404, 'Not found.');
		}
	} catch (err) {
		if (err instanceof SandboxError) return fail(err.statusCode, err.message);
		return fail(422, err instanceof Error ? err.message : String(err));
	}
}
