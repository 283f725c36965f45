import '@picocss/pico/css/pico.min.css';
import './tokens.css';
import './styles.css';
import { render } from 'preact';
import { App } from './app.js';
import { adoptPath } from './router.js';

adoptPath();

render(<App />, document.getElementById('app')!);
