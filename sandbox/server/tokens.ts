/** Bearer tokens of both interfaces (docs/endpoints.md, Tokens). */
import { randomBytes } from 'crypto';
import type { ApiInterface } from '../types';

export interface IssuedToken {
	token: string;
	type: 'Bearer';
	expires_in: number;
}

export class TokenStore {
	private readonly tokens = new Map<string, { api: ApiInterface; expiresAt: number }>();

	constructor(private readonly lifetimeSeconds: number) {}

	issue(api: ApiInterface): IssuedToken {
		const token = randomBytes(30).toString('base64url');
		this.tokens.set(token, { api, expiresAt: Date.now() + this.lifetimeSeconds * 1000 });
		// At least 1: expires_in is a positive integer even when a test shortens the lifetime.
		return { token, type: 'Bearer', expires_in: Math.max(1, Math.ceil(this.lifetimeSeconds)) };
	}

	/** True only for a live token of this interface: one interface's token never opens the other. */
	isValid(token: string | undefined, api: ApiInterface): boolean {
		if (!token) return false;
		const entry = this.tokens.get(token);
		if (!entry) return false;
		if (Date.now() >= entry.expiresAt) {
			this.tokens.delete(token);
			return false;
		}
		return entry.api === api;
	}

	expireAll(): void {
		this.tokens.clear();
	}
}
