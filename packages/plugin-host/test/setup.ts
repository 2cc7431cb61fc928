// The app entry (wiring) imports reflect-metadata; tests of the host stand in for it.
import 'reflect-metadata';
