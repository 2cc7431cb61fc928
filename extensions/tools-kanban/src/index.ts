// Public surface of @quiver/tools-kanban.
export {};
