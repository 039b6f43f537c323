/**
 * Accessible tabs (WAI-ARIA tabs pattern): one tab stop for the list, arrow keys and Home/End move
 * between tabs, and each panel is labelled by its tab.
 */
import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabSpec {
  id: string;
  title: string;
}

export const tabId = (prefix: string, id: string) => `${prefix}-tab-${id}`;
export const panelId = (prefix: string, id: string) => `${prefix}-panel-${id}`;

export function TabList(props: {
  label: string;
  prefix: string;
  tabs: readonly TabSpec[];
  active: string;
  onSelect(id: string): void;
}) {
  const list = useRef<HTMLDivElement>(null);
  function onKeyDown(e: KeyboardEvent) {
    const i = props.tabs.findIndex((t) => t.id === props.active);
    const n = props.tabs.length;
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % n
        : e.key === 'ArrowLeft'
          ? (i - 1 + n) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    props.onSelect(props.tabs[next].id);
    list.current?.querySelector<HTMLButtonElement>(`#${tabId(props.prefix, props.tabs[next].id)}`)?.focus();
  }
  return (
    <div role="tablist" aria-label={props.label} className="tablist" ref={list} onKeyDown={onKeyDown}>
      {props.tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={tabId(props.prefix, t.id)}
          aria-selected={t.id === props.active}
          aria-controls={panelId(props.prefix, t.id)}
          tabIndex={t.id === props.active ? 0 : -1}
          onClick={() => props.onSelect(t.id)}
        >
          {t.title}
        </button>
      ))}
    </div>
  );
}

export function TabPanel(props: {
  prefix: string;
  id: string;
  active: string;
  children: ReactNode;
  className?: string;
}) {
  const shown = props.id === props.active;
  return (
    <div
      role="tabpanel"
      id={panelId(props.prefix, props.id)}
      aria-labelledby={tabId(props.prefix, props.id)}
      hidden={!shown}
      className={props.className}
    >
      {props.children}
    </div>
  );
}
