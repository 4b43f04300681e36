// Types of api.mjs (`attention-lab`): the lab as a module of a host page. Written by hand
// beside the module's own comments; tests/types/ compiles an example against these with
// `tsc --strict`. The state's keys are the app's (README, "State"; `lab.schema()` returns them
// at run time): the build writes LabSettings and LabSettingsPatch from the same table
// (cmake/steps/make-site.mjs, step 6), each key with its type, range and default, so a
// misspelled key in a patch fails to compile.

/** The settings: every key of the state's schema, objects nested by the keys' dots ('lm.tokens' is lm.tokens). */
export type LabSettings = Record<string, unknown>; // @state-schema settings

/** A settings patch: any of the settings' keys, at any depth; the others keep their values. */
export type LabSettingsPatch = Record<string, unknown>; // @state-schema patch

/** What getState() tells beside the settings; setState ignores these but the training lab's. */
export interface LabFacts {
  /** The state's schema version. */
  version: number;
  /** The scene's tokens, one label each. */
  tokens: string[];
  /** The figures' numbers (README, "State"). */
  figures: Record<string, unknown>;
  /** Why the last link or state was not taken whole. */
  notice?: string;
  /** The imported file's summary, while the scene is an imported file. */
  import?: Record<string, unknown>;
  /** The training lab's settings (setState takes them). */
  training: Record<string, unknown>;
  /** The scaling run's settings (setState takes them). */
  scalingRun: Record<string, unknown>;
}

/** The state: getState() and what setState resolves to. */
export type LabState = LabSettings & LabFacts;

/** What setState and createLab's `state` take: a settings patch (a whole state from getState() too). */
export type LabStatePatch = LabSettingsPatch & Partial<LabFacts>;

/** A saved session (session()): the settings and their schema version. */
export type LabSession = LabSettings & { version: number };

export interface LabOptions {
  /** The state to start from. */
  state?: LabStatePatch;
  /** A link's fragment, '#v=2&...'. */
  fragment?: string;
  /** false hides the controls window. */
  controls?: boolean;
  /** false hides the panel tabs. */
  tabs?: boolean;
  /** Give up the WebGL context while the lab is scrolled out of view. */
  releaseOffscreen?: boolean;
  /** The canvas's accessible name. */
  label?: string;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlotLayout extends Rect {
  xTitle: string;
  yTitle: string;
  xRange: [number, number];
  yRange: [number, number];
  logX: boolean;
  logY: boolean;
  xTicks: string[];
  yTicks: string[];
  legend: string[];
  references: string[];
  readout: string;
}

export interface ExerciseLayout extends Rect {
  /** The exercise shown (0: none; the other fields only then). */
  id: number;
  question: string;
  /** The verdict's reason or hint under the controls ("" before an answer). */
  feedback: string;
  /** The heatmap a click on which answers a cell exercise ("" otherwise or once revealed). */
  answerOn: string;
  /** What is veiled until the learner answers, by id. */
  veiled: Record<string, Rect>;
  choiceBoxes: Rect[];
  inputBox: Rect;
  checkBox: Rect;
  showBox: Rect;
  nextBox: Rect;
}

export interface LabLayout {
  /** The exercise card (its box, question, verdict, controls) and what it veils. */
  exercise: ExerciseLayout | { id: 0 };
  /** Where the last frame drew each heatmap and tab, in page coordinates (CSS pixels). */
  heatmaps: Record<string, Rect>;
  tabs: Record<string, Rect>;
  /** Each plot's axes box (page coordinates), titles, data ranges, tick labels, legend, reference lines and the readout under the pointer. */
  plots: Record<string, PlotLayout>;
  /** Whether the controls window is shown (the full lab folds it away on panels that read none of the scene's settings). */
  controls: boolean;
  /** The chapter buttons, then the shown chapter's panel buttons: kind ('chapter' | 'panel'), id, text, box, the label's width, selected, and the right edge they keep within. */
  nav: Array<Rect & { kind: string; id: string; text: string; textWidth: number; selected: boolean; right: number }>;
  /** The line above a panel of the generated scene saying its projections are random (drawn from the seed), with its box; null where the panel shows no such projections. */
  randomNote: (Rect & { text: string }) | null;
  hover: unknown;
  playing: boolean;
  missingGlyphs: number;
  /** Text the last frame drew that no one could read whole: 'cut' (a glyph cut by its window's or figure's edge), 'overlap' (glyphs of two strings over each other), 'covered' (under a card or popup drawn over it), 'wider' (a window whose content reaches past its edge), with the draw list's window and the box. Empty on a readable frame. */
  textFaults: Array<Rect & { kind: 'cut' | 'overlap' | 'covered' | 'wider'; window: string }>;
  cjkFont: boolean;
  framebuffer: { width: number; height: number };
  devicePixelRatio: number;
}

export interface PanelInfo {
  id: string;
  chapter: string;
  title: string;
  stateKeys: string[];
  /** Draws heatmaps with the GL heatmap program. */
  heatmaps: boolean;
  /** Draws the scaling and softmax lab's figures. */
  scalingLab: boolean;
  /** Shows raw or scaled scores: an imported file needs Q/K/V for it. */
  needsScores: boolean;
  /** Draws the training lab's live run or its scaling experiment (built when first shown). */
  trainingRuns: boolean;
}

export interface LabEvents {
  cursor: { cursor: number; token: string };
  /** The state as a link fragment. */
  change: string;
  /** The figure's text, as screen readers get it. */
  describe: string;
  /** The lab's WebAssembly module died (a bug, out of memory); heard once. */
  crash: Error;
  /** An exercise was answered (in its card or through answer()). */
  answer: { exercise: number; correct: boolean; attempts: number };
  /** The exercises' progress was loaded or cleared through the handle. */
  progress: ExerciseProgress[];
}

export interface LocalizedText {
  en: string;
  zh: string;
}

export interface ExerciseInfo {
  /** The number the state's `exercise` key takes to show it. */
  id: number;
  /** The chapter's id ('similarity', 'scaling', ...). */
  chapter: string;
  /** The panel's id. */
  panel: string;
  kind: 'cell' | 'choice' | 'number';
  question: LocalizedText;
  /** For 'number': answers within this of the live value are right. */
  tolerance?: { absolute: number };
  /** For 'choice': the options, answered by index. */
  choices?: LocalizedText[];
}

export type ExerciseAnswer = { row: number; col: number } | number;

export interface ExerciseVerdict {
  correct: boolean;
  /** In the answer's form; for 'cell' every accepted cell (ties happen). */
  expected: { row: number; col: number }[] | number;
  /** Why, with the figures' values, in the lab's language. */
  explanation: string;
}

export interface ExerciseProgress {
  id: number;
  attempts: number;
  done: boolean;
}

export interface LabHandle {
  getState(): LabState;
  /** Resolves once drawn, with the new state; rejects with the reason if refused. */
  setState(patch: LabStatePatch): Promise<LabState>;
  /** An intermediate of the current head ('scores', 'weights', 'output', ...); null if none. */
  getMatrix(name: string, head?: number): Float32Array | null;
  layout(): LabLayout;
  framesDrawn(): number;
  heapStats(): Record<string, number> | null;
  frameMs(): number;
  /**
   * CPU time of frames, split (ms): the last frame and the last that recomputed the results;
   * and how many frames so far showed the picture already on the canvas, so drew nothing.
   */
  frameTimings(): { last: FrameTimings; lastRecompute: FrameTimings; unchangedFrames: number } | null;
  /** The settings as a URL fragment. */
  link(): string;
  /** Loads a fragment; a bad link gives the defaults, and the notice is returned. */
  loadLink(fragment: string): string;
  session(): LabSession;
  /** Loads a saved session; returns the reason if refused ('' when loaded). */
  loadSession(text: string): string;
  describe(): string;
  schema(): Record<string, unknown>;
  panels(): PanelInfo[];
  uiString(name: string): string;
  /**
   * The last refusal (of loadLink, loadSession, setState, importFile or an export) in the lab's
   * language, with `label` (a file's name) before it. The messages scripts read (a rejection's
   * message, what loadLink returns) stay English; a rejected setState or importFile also
   * carries this text as `error.localized`.
   */
  refusalText(label?: string): string;
  /** Why the link the lab started from was ignored, in the lab's language ("" if it was not). */
  noticeText(): string;
  /** The height the layout asks for, in CSS pixels. */
  preferredHeight(): number;
  /**
   * An attention file (.npy, .npz, JSON) shown as the lab's scene by the same import as a dropped
   * file; resolves once drawn to getState().import, rejects with the import's reason. The file
   * lives in the running lab only: a lab made with releaseOffscreen loses it when released.
   */
  importFile(file: Blob | { name: string; bytes: ArrayBuffer | Uint8Array }, options?: { batch?: number; bfloat16?: boolean }): Promise<Record<string, unknown>>;
  parseMessage(text: string): Promise<unknown> | unknown;
  /** The exercises; setState({exercise: id}) shows one. */
  exercises(): ExerciseInfo[];
  /**
   * Answers the shown exercise, graded against the figures as they are now. Rejects with a
   * TypeError (and counts nothing) for a value of the wrong form or when no exercise is shown.
   */
  answer(value: ExerciseAnswer): Promise<ExerciseVerdict>;
  /** The learner's progress: the exercises tried (kept beside the stored session, never in links). */
  exerciseProgress(): ExerciseProgress[];
  /** Restores a stored copy; returns why it was refused ('' when loaded). */
  loadExerciseProgress(progress: ExerciseProgress[] | string): string;
  clearExerciseProgress(): void;
  /** Returns a function that removes the listener. */
  on<E extends keyof LabEvents>(event: E, listener: (value: LabEvents[E]) => void): () => void;
  poll(full?: boolean): void;
  release(): void;
  /**
   * Once the lab's module has died (a bug, out of memory), the error (name 'LabStoppedError')
   * that every method needing the module then throws or rejects with; null while it runs.
   * createLab then shows a message with ways out in the lab's place.
   */
  crashed: Error | null;
  /** Marks the lab as dead (what the module's owner calls when it dies); returns the error. */
  crash(error: unknown): Error;
  /** Test hook: ends the module as a bug would ('abort', 'trap' in the next frame, 'stack'). */
  debugCrash(kind: 'abort' | 'trap' | 'stack'): Promise<void>;
  /**
   * Unmounts the lab (createLab's): the per-frame poll ends, the listeners are dropped, the
   * WebAssembly module is stopped and let go with its WebGL context, the observer is
   * disconnected and the lab's element leaves the container. Resolves once done; a second call
   * does nothing. Afterwards every other method throws, or rejects with, a LabDestroyedError.
   */
  destroy(): Promise<void>;
  /** The lab's element inside the container (createLab only). */
  element?: HTMLElement;
  canvas?: () => HTMLCanvasElement | null;
  /** Why the link the lab started from was ignored (English). */
  notice?: string;
  noticeLocalized?: string;
  suspended?: boolean;
  cjkFontLoaded?: boolean;
}

/** What makeHandle reads a running app from (the full page's own handle uses it). */
export interface HandleSource {
  module(): unknown;
  canvas(): HTMLCanvasElement;
  frames(): number;
  use?<T>(fn: () => T): Promise<T> | T;
  visible?(): boolean | undefined;
  /** Undoes what the owner started (lab.destroy() calls it once). */
  destroy?(): void | Promise<void>;
}

/** What every method of a destroyed lab throws or rejects with (name 'LabDestroyedError'). */
export class LabDestroyedError extends Error {
  name: 'LabDestroyedError';
}

/** The version of the postMessage protocol (README, "postMessage API"). */
export const MESSAGE_VERSION: 1;

/** Starts a lab in `container` and resolves when it has drawn its first frame. */
export function createLab(container: Element, options?: LabOptions): Promise<LabHandle>;

/** Resolves at the browser's next animation frame. */
export function nextFrame(): Promise<number>;

export function makeHandle(source: HandleSource): LabHandle;

/** Touch as the app's mouse: the first finger moves the pointer, presses and releases. */
export function bridgeTouch(canvas: HTMLCanvasElement): void;

/** Where one frame's CPU time went, in milliseconds; `frame` is its framesDrawn() number. */
export interface FrameTimings {
  computeMs: number;
  uiMs: number;
  uploadMs: number;
  drawMs: number;
  totalMs: number;
  frame: number;
}
