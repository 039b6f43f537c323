/**
 * The GSQL code editor: CodeMirror 6 with GSQL highlighting and completion, line numbers, undo,
 * bracket matching, Ctrl/Cmd-Enter to run, and an error marked at its line and column. Tab is left
 * to the browser (moving focus on), so the editor never traps keyboard users.
 */
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  type Completion,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { offsetOf, type TextPosition } from '../model/error-position.js';
import { gsql, gsqlCompletion, gsqlHighlight } from './gsql-language.js';

/** The page's Content-Security-Policy nonce, which CodeMirror's generated <style> must carry. */
function cspNonce(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="ocelot-csp-nonce"]')?.content ?? '';
}

export interface EditorError {
  message: string;
  position: TextPosition;
}

export interface GsqlEditorHandle {
  setText(text: string): void;
  focus(): void;
}

interface Props {
  initialText: string;
  onChange(text: string): void;
  onRun(): void;
  completions(): Completion[];
  error: EditorError | undefined;
}

export const GsqlEditor = forwardRef<GsqlEditorHandle, Props>(function GsqlEditor(props, ref) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>();
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const v = new EditorView({
      parent: host.current as HTMLDivElement,
      state: EditorState.create({
        doc: latest.current.initialText,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          closeBrackets(),
          indentOnInput(),
          gsql(),
          syntaxHighlighting(gsqlHighlight),
          autocompletion({ override: [gsqlCompletion(() => latest.current.completions())] }),
          lintGutter(),
          keymap.of([
            { key: 'Mod-Enter', run: () => (latest.current.onRun(), true) },
            ...closeBracketsKeymap,
            ...defaultKeymap,
            ...historyKeymap,
            ...completionKeymap,
          ]),
          EditorView.cspNonce.of(cspNonce()),
          EditorView.contentAttributes.of({ 'aria-label': 'GSQL', 'aria-describedby': 'gsql-editor-help' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
  }, []);

  useImperativeHandle(ref, () => ({
    setText(text: string) {
      const v = view.current;
      if (v) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
    },
    focus() {
      view.current?.focus();
    },
  }));

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const e = props.error;
    if (!e) {
      v.dispatch(setDiagnostics(v.state, []));
      return;
    }
    const text = v.state.doc.toString();
    const from = offsetOf(text, e.position);
    const lineEnd = v.state.doc.lineAt(from).to;
    const to = Math.min(lineEnd, Math.max(from + 1, text.slice(from).search(/\W|$/) + from));
    v.dispatch(
      setDiagnostics(v.state, [{ from, to: Math.max(to, from), severity: 'error', message: e.message }]),
    );
  }, [props.error]);

  return (
    <div className="gsql-editor">
      <div ref={host} className="gsql-editor-host" />
      <p id="gsql-editor-help" className="hint">
        Ctrl+Enter (⌘+Enter) runs; Ctrl+Space completes; Tab moves focus out of the editor.
      </p>
    </div>
  );
});
