/**
 * Generate with "Map Input Columns Automatically": the columns a row supplies. Customer details
 * come from columns of the same names as the Customer Fields of the form.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	columnsNotice,
	mappingModeProperty,
	NEW_RECORD_COLUMNS,
} from '../../../shared/descriptions/properties';
import type { ColumnField } from '../../../shared/descriptions/columns';
import type { ItemValue } from '../../../shared/runner/itemValues';
import { CUSTOMER_DETAILS } from '../../helpers/customerBody';

export const GENERATE_COLUMNS: ColumnField[] = [
	...NEW_RECORD_COLUMNS,
	{ param: 'channelCode', label: 'Channel', orNodeField: true },
	...CUSTOMER_DETAILS.map(({ name, label }) => ({ param: name, label })),
];

/** The Customer Fields collection, read from the row's columns. */
export function customerColumns(read: ItemValue): IDataObject {
	return Object.fromEntries(
		CUSTOMER_DETAILS.map(({ name }) => [name, read(name) as IDataObject[string]]),
	);
}

export const generateMappingProperties: INodeProperties[] = [
	mappingModeProperty('payment link'),
	columnsNotice(GENERATE_COLUMNS),
];
