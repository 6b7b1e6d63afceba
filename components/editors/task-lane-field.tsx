// A task's lane: none, or one of the Work's lanes. A lane the Work no longer has stays listed while the task
// is on it, so the select shows where the task stands (saving it is refused with the API's message).
import { inputClass } from "../ui/input-classes";

type Props = {
  lanes: { id: string; name: string }[];
  value: string;
  onChange?: (lane: string) => void;
  // In a plain form (the create panel): the field's name, read from the posted form.
  name?: string;
  id?: string;
};

export function TaskLaneField({ lanes, value, onChange, name, id = "task-lane" }: Props) {
  const isGone = value !== "" && !lanes.some((l) => l.id === value);
  return (
    <select
      id={id}
      name={name}
      aria-label="Lane"
      {...(onChange ? { value, onChange: (e) => onChange(e.target.value) } : { defaultValue: value })}
      className={`${inputClass} w-full sm:w-auto`}
    >
      <option value="">No lane</option>
      {lanes.map((l) => (
        <option key={l.id} value={l.id}>
          {l.name} ({l.id})
        </option>
      ))}
      {isGone ? <option value={value}>{value} (no longer a lane of this Work)</option> : null}
    </select>
  );
}
