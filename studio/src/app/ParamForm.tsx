/** A form with one labelled field per query parameter, built from the query's signature. */
import { paramHint, type QueryParam } from '../model/query-params.js';

export function ParamForm(props: {
  title: string;
  params: readonly QueryParam[];
  values: Record<string, string>;
  onChange(values: Record<string, string>): void;
}) {
  if (props.params.length === 0) return null;
  return (
    <fieldset className="params">
      <legend>{props.title}</legend>
      {props.params.map((p) => {
        const id = `param-${p.name}`;
        const set = (v: string) => props.onChange({ ...props.values, [p.name]: v });
        return (
          <div key={p.name} className="param">
            <label htmlFor={id}>
              {p.name} <span className="type">{p.typeText}</span>
            </label>
            {p.type.base === 'BOOL' && !p.type.collection ? (
              <select id={id} value={props.values[p.name] ?? ''} onChange={(e) => set(e.target.value)}>
                <option value="">(default)</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : (
              <input
                id={id}
                value={props.values[p.name] ?? ''}
                placeholder={p.defaultText !== undefined ? `default ${p.defaultText}` : paramHint(p)}
                aria-describedby={`${id}-hint`}
                onChange={(e) => set(e.target.value)}
              />
            )}
            <span id={`${id}-hint`} className="hint">
              {paramHint(p)}
            </span>
          </div>
        );
      })}
    </fieldset>
  );
}
