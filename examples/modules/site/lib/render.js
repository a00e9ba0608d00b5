export function renderTable(values) {
  let html = "<table>";
  for (let i = 0; i < values.length; i += 10) {
    html += "<tr>" + values.slice(i, i + 10).map(formatCell).join("") + "</tr>";
  }
  return html + "</table>";
}

function formatCell(value) {
  return `<td>${value.toString(16).padStart(6, "0")}</td>`;
}
