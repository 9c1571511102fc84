import { ValidationError } from '@trackline/domain';
import { parseFields, type FieldSchema } from './field-schema';

interface Order {
  quantity: number;
  note: string | null;
  rush: boolean;
}

const ORDER: FieldSchema<Order> = {
  quantity: {
    name: 'qty',
    presence: 'required',
    parse: (value) => {
      if (typeof value !== 'number' || value < 1) throw new ValidationError('', 'must be a positive number');
      return value;
    },
  },
  note: { name: 'note', presence: 'clearable', parse: String },
  rush: { name: 'rush', presence: 'optional', parse: (value) => value === 1 },
};

function refusal(input: Record<string, unknown>): string {
  try {
    parseFields(ORDER, input, 'is not an order field');
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).message;
  }
  throw new Error('was accepted');
}

describe('parseFields', () => {
  it('yields each typed value under its key; left out is absent, a cleared field null', () => {
    expect(parseFields(ORDER, { qty: 2, rush: 1 }, 'x')).toEqual({ quantity: 2, rush: true });
    expect(parseFields(ORDER, { qty: 2, note: '' }, 'x')).toEqual({ quantity: 2, note: null });
    expect(parseFields(ORDER, { qty: 2, note: null }, 'x')).toEqual({ quantity: 2, note: null });
  });

  it('refuses an unknown name before any rule, naming it as sent', () => {
    expect(refusal({ qty: 0, colour: 'red' })).toBe('colour: is not an order field');
    expect(refusal(JSON.parse('{"qty": 1, "__proto__": 1}'))).toBe('__proto__: is not an order field');
  });

  it("reports the first broken rule in the schema's order under the field's name", () => {
    expect(refusal({ rush: 1 })).toBe('qty: is required');
    expect(refusal({ qty: 0, rush: null })).toBe('qty: must be a positive number');
    expect(refusal({ qty: 1, rush: null })).toBe('rush: must not be null');
  });
});
