// The controller: DOM events to store calls, store changes to the view.
import { TodoStore } from "./store.js";
import { renderList, renderCount } from "./view.js";

const store = new TodoStore();
const list = document.querySelector(".todo-list");
const counter = document.querySelector(".todo-count");
const template = document.getElementById("todo-item");
const input = document.querySelector(".new-todo");

store.subscribe((todos) => {
  renderList(list, template, todos);
  renderCount(counter, todos);
});

input.form.addEventListener("submit", (event) => {
  event.preventDefault();
  const title = input.value.trim();
  if (title) store.add(title);
  input.value = "";
});

function idOf(target) {
  return Number(target.closest("li").dataset.id);
}
list.addEventListener("change", (event) => {
  if (event.target.matches(".toggle")) store.toggle(idOf(event.target));
});
list.addEventListener("click", (event) => {
  if (event.target.matches(".destroy")) store.remove(idOf(event.target));
});
document.querySelector(".clear-completed").addEventListener("click", () => store.clearCompleted());
