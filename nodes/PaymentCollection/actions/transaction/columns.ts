/**
 * Generate with "Map Input Columns Automatically": the columns a row supplies. Customer details
 * come from columns of the same names as the Customer Fields of the form.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { columnsNotice, mappingModeProperty } from '../../../shared/descriptions/columnMapping';
import { columnName, type ColumnField, type ItemValue } from '../../../shared/runner/itemValues';
import { CUSTOMER_DETAILS } from '../../helpers/customerBody';

const show = { resource: ['transaction'], operation: ['generate'] };

export const GENERATE_COLUMNS: ColumnField[] = [
	{ param: 'referenceNo', label: 'Reference No', required: true },
	{ param: 'amount', label: 'Amount', required: true },
	{ param: 'channelCode', label: 'Channel', orNodeField: true },
	...CUSTOMER_DETAILS.map(({ name, label }) => ({ param: name, label })),
];

/** The Customer Fields collection, read from the row's columns. */
export function customerColumns(read: ItemValue): IDataObject {
	return Object.fromEntries(CUSTOMER_DETAILS.map(({ name }) => [name, read(name) as IDataObject[string]]));
}

export const generateMappingProperties: INodeProperties[] = [
	mappingModeProperty(show, 'payment link'),
	columnsNotice(
		show,
		`required: reference_no, amount; optional: ${CUSTOMER_DETAILS.map(({ name }) => columnName(name)).join(', ')}, channel_code (when missing or empty, the Channel above)`,
	),
];
