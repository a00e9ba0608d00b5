// The model: a list of todos and the listeners told of each change.
export class TodoStore {
  #todos = [];
  #nextId = 1;
  #listeners = [];

  get todos() {
    return this.#todos;
  }

  subscribe(listener) {
    this.#listeners.push(listener);
  }

  #changed() {
    for (const listener of this.#listeners) listener(this.#todos);
  }

  add(title) {
    this.#todos = [...this.#todos, { id: this.#nextId++, title, completed: false }];
    this.#changed();
  }

  toggle(id) {
    this.#todos = this.#todos.map((t) => (t.id === id ? { ...t, completed: !t.completed } : t));
    this.#changed();
  }

  remove(id) {
    this.#todos = this.#todos.filter((t) => t.id !== id);
    this.#changed();
  }

  clearCompleted() {
    this.#todos = this.#todos.filter((t) => !t.completed);
    this.#changed();
  }
}
