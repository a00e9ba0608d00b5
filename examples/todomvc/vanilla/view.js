// The view: keyed rendering of the list from the template element, and
// the footer's count.
export function renderList(list, template, todos) {
  const existing = new Map();
  for (const li of list.children) existing.set(Number(li.dataset.id), li);
  const items = todos.map((todo) => {
    let li = existing.get(todo.id);
    if (!li) {
      li = template.content.firstElementChild.cloneNode(true);
      li.dataset.id = String(todo.id);
      li.querySelector("label").textContent = todo.title;
    }
    li.classList.toggle("completed", todo.completed);
    li.querySelector(".toggle").checked = todo.completed;
    return li;
  });
  list.replaceChildren(...items);
}

export function renderCount(counter, todos) {
  const left = todos.filter((t) => !t.completed).length;
  const strong = document.createElement("strong");
  strong.textContent = String(left);
  counter.replaceChildren(strong, ` ${left === 1 ? "item" : "items"} left`);
}
