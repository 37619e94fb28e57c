export { ArticlePage } from "./components/article-page.tsx";
export { ArticlesPage } from "./components/articles-page.tsx";
