// The bot's typed variables: what templates and expressions read as `variables.<name>`.
import { useState } from 'preact/hooks';
import type { Definition, Variable, VariableType } from './definition.js';

const TYPES: VariableType[] = ['string', 'number', 'boolean', 'object', 'array'];

export function VariablesPanel({ def, onChange, readOnly }: { def: Definition; onChange: (d: Definition) => void; readOnly: boolean }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<VariableType>('string');
  const [error, setError] = useState<string | null>(null);
  const put = (variables: Variable[]) => onChange({ ...def, variables });
  return (
    <section class="variables-panel" aria-labelledby="variables-title">
      <h2 id="variables-title">Variables</h2>
      {def.variables.length === 0 ? (
        <p class="muted">No variables yet. A question stores its answer in one; a function or an HTTP call its result.</p>
      ) : (
        <table class="striped">
          <caption class="visually-hidden">Variables of the bot</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Default (JSON)</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {def.variables.map((v, i) => (
              <tr>
                <th scope="row">
                  <code>{v.name}</code>
                </th>
                <td>{v.type}</td>
                <td>
                  <input
                    aria-label={`Default of ${v.name}`}
                    value={v.default === undefined ? '' : JSON.stringify(v.default)}
                    readOnly={readOnly}
                    onChange={(e) => {
                      const text = (e.target as HTMLInputElement).value.trim();
                      try {
                        put(def.variables.map((x, j) => (j === i ? (text === '' ? { name: x.name, type: x.type } : { ...x, default: JSON.parse(text) }) : x)));
                        setError(null);
                      } catch {
                        setError(`The default of ${v.name} is not JSON (a string needs quotes: "text")`);
                      }
                    }}
                  />
                </td>
                <td>
                  {!readOnly && (
                    <button type="button" class="secondary outline" onClick={() => put(def.variables.filter((_, j) => j !== i))}>
                      Remove {v.name}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      {!readOnly && (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const n = name.trim();
            if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(n)) return setError('Variable name: a letter or _ first, then letters, digits or _ (at most 64)');
            if (def.variables.some((v) => v.name === n)) return setError(`Variable name: ${n} exists already`);
            setError(null);
            put([...def.variables, { name: n, type }]);
            setName('');
          }}
        >
          <label for="variable-name">
            Variable name
            <input id="variable-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          <label for="variable-type">
            Type
            <select id="variable-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as VariableType)}>
              {TYPES.map((t) => (
                <option>{t}</option>
              ))}
            </select>
          </label>
          <button type="submit">Add variable</button>
        </form>
      )}
    </section>
  );
}
