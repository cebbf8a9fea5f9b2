/**
 * Fault injection. Rules are checked in the order they were added; every matching `latency` rule
 * adds its delay, and the first matching rule of any other mode decides the fault. A rule with
 * `probability` draws from its own seeded generator, so a benchmark run is reproducible.
 */
import type { FaultMode, FaultRule } from '../types';

export const FAULT_MODES: readonly FaultMode[] = [
	'error-before',
	'error-after',
	'drop-before',
	'drop-after',
	'timeout-after',
	'malformed',
	'latency',
	'trickle',
	'oversize',
];

/** mulberry32: tiny, fast, good enough for reproducible coin flips. */
export function seededRandom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Checks a rule (it may come from the HTTP control surface); throws with a readable message. */
export function validateFaultRule(input: unknown): FaultRule {
	if (typeof input !== 'object' || input === null)
		throw new Error('A fault rule must be an object.');
	const rule = input as Record<string, unknown>;
	if (typeof rule.path !== 'string' || !rule.path.startsWith('/'))
		throw new Error('path must be a string starting with "/".');
	if (!FAULT_MODES.includes(rule.mode as FaultMode))
		throw new Error(`mode must be one of ${FAULT_MODES.join(', ')}.`);
	if (rule.method !== undefined && typeof rule.method !== 'string')
		throw new Error('method must be a string.');
	if (rule.referenceNo !== undefined && typeof rule.referenceNo !== 'string')
		throw new Error('referenceNo must be a string.');
	if (rule.location !== undefined && typeof rule.location !== 'string')
		throw new Error('location must be a string.');
	if (rule.html !== undefined && typeof rule.html !== 'string')
		throw new Error('html must be a string.');
	if (rule.partialBody !== undefined && typeof rule.partialBody !== 'boolean')
		throw new Error('partialBody must be true or false.');
	const int = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
		const v = rule[name];
		if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)) {
			throw new Error(
				`${name} must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}.`,
			);
		}
	};
	int('status', 100, 599);
	int('times', 0);
	int('latencyMs', 0);
	int('holdMs', 0);
	int('intervalMs', 1);
	int('sizeBytes', 0);
	if (rule.forever !== undefined && typeof rule.forever !== 'boolean')
		throw new Error('forever must be true or false.');
	if (rule.seed !== undefined && (typeof rule.seed !== 'number' || !Number.isFinite(rule.seed)))
		throw new Error('seed must be a number.');
	const p = rule.probability;
	if (p !== undefined && (typeof p !== 'number' || p < 0 || p > 1))
		throw new Error('probability must be from 0 to 1.');
	return { ...(rule as unknown as FaultRule) };
}

interface ActiveRule {
	rule: FaultRule;
	remaining: number;
	random: () => number;
}

export interface FaultDecision {
	latencyMs: number;
	fault?: FaultRule;
}

export class FaultInjector {
	private rules: ActiveRule[] = [];

	add(rule: FaultRule): void {
		const valid = validateFaultRule(rule);
		this.rules.push({
			rule: valid,
			remaining: valid.times ?? Number.POSITIVE_INFINITY,
			random: valid.seed !== undefined ? seededRandom(valid.seed) : Math.random,
		});
	}

	clear(): void {
		this.rules = [];
	}

	list(): FaultRule[] {
		return this.rules.map((r) => ({ ...r.rule }));
	}

	/** `referenceNo`: the reference_no of the request's JSON body, when it names one. */
	decide(method: string, path: string, referenceNo?: string): FaultDecision {
		const decision: FaultDecision = { latencyMs: 0 };
		for (const active of this.rules) {
			const { rule } = active;
			if (active.remaining <= 0) continue;
			if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) continue;
			if (!path.startsWith(rule.path)) continue;
			if (rule.referenceNo !== undefined && rule.referenceNo !== referenceNo) continue;
			const isLatency = rule.mode === 'latency';
			if (!isLatency && decision.fault) continue;
			if (rule.probability !== undefined && active.random() >= rule.probability) continue;
			active.remaining--;
			if (isLatency) decision.latencyMs += rule.latencyMs ?? 0;
			else decision.fault = rule;
		}
		return decision;
	}
}
