enum Mode { "", "fast", "very-slow" };
