import { createHmac } from 'crypto';
import { signCallback, verifySignature } from '../../../nodes/shared/validation/signature';

describe('callback signature helper', () => {
	it('is lower-case hex HMAC-SHA256 of "<amount>@<reference_no>"', () => {
		const expected = createHmac('sha256', 'secret').update('100@EPLKZT2OH319WBEF').digest('hex');
		expect(signCallback('secret', 100, 'EPLKZT2OH319WBEF')).toBe(expected);
		expect(signCallback('secret', '100', 'EPLKZT2OH319WBEF')).toBe(expected);
		expect(expected).toMatch(/^[0-9a-f]{64}$/);
	});

	it('uses the amount text as given: "100.50" and 100.5 differ', () => {
		expect(signCallback('s', '100.50', 'R')).not.toBe(signCallback('s', 100.5, 'R'));
		expect(signCallback('s', '100.5', 'R')).toBe(signCallback('s', 100.5, 'R'));
	});

	it('verifies good signatures and rejects everything else without throwing', () => {
		const sig = signCallback('secret', 250, 'REF-1');
		expect(verifySignature('secret', 250, 'REF-1', sig)).toBe(true);
		expect(verifySignature('secret', 250, 'REF-1', sig.toUpperCase())).toBe(true);
		expect(verifySignature('secret', 251, 'REF-1', sig)).toBe(false);
		expect(verifySignature('secret', 250, 'REF-2', sig)).toBe(false);
		expect(verifySignature('wrong', 250, 'REF-1', sig)).toBe(false);
		expect(verifySignature('', 250, 'REF-1', signCallback('', 250, 'REF-1'))).toBe(false);
		for (const bad of [
			undefined,
			null,
			42,
			'',
			'abc',
			sig.slice(0, 63),
			`${sig}0`,
			`${sig.slice(0, 62)}zz`,
		]) {
			expect(verifySignature('secret', 250, 'REF-1', bad)).toBe(false);
		}
	});
});
